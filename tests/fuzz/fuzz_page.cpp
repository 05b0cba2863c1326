// libFuzzer harness: the html engine's page builder (server/render/document/html_page.h)
// as a Chromium render runs it: a template JSON (an `html` source, `markup` or an element
// tree, with variables) parsed, its variables resolved, the page written with the emoji
// of a set and a head style, then the html budget check the page must pass before it is
// sent to the browser. Looks for crashes, hangs and undefined behaviour.
#include "tests/fuzz/fuzz_support.h"

#include "server/render/document/html_page.h"
#include "server/render/document/template.h"
#include "server/render/render_budget.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace imprint::render;
    const QJsonDocument doc
        = QJsonDocument::fromJson(QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!doc.isObject())
        return 0;
    const TemplateLimits limits;
    const auto tmpl = parseTemplate(doc.object(), limits);
    if (!tmpl)
        return 0;
    const auto values = resolveVariables(*tmpl, doc.object().value(QLatin1String("values")).toObject(), {}, limits);
    if (!values)
        return 0;
    QStringList warnings;
    const PageEmoji emoji{EmojiSet::Twemoji, &imprint::fuzz::context().emoji(), &warnings};
    for (const bool contentSized : {false, true}) {
        const auto page = templatePageHtml(*tmpl, *values, contentSized, limits, emoji,
                                           QStringLiteral("@font-face{font-family:Brand;src:url(data:,x)}"));
        if (page)
            (void)checkHtmlBudget(*page, limits.maxNodes, limits.maxDepth, RenderBudget{});
    }
    return 0;
}
