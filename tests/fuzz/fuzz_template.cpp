// libFuzzer harness: template JSON (docs/templates.md) through parse, variables, the
// styled tree and layout, as POST /templates and a render take it.
#include "tests/fuzz/fuzz_support.h"

#include <QJsonDocument>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument doc
        = QJsonDocument::fromJson(QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (doc.isObject())
        imprint::fuzz::layOutDocument(doc.object());
    return 0;
}
