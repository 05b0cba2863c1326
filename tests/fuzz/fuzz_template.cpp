// libFuzzer harness: template JSON (docs/templates.md) through parse, variables, the
// styled tree and layout, as POST /templates and a render take it.
#include "tests/fuzz/fuzz_harness.h"

#include <QJsonDocument>

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    const QJsonDocument doc
        = QJsonDocument::fromJson(input.toByteArray());
    if (doc.isObject())
        imprint::fuzz::layOutDocument(doc.object());
}
