// libFuzzer harness: a template's HTML `markup` (libgumbo → the node tree) through style
// and layout, with the node and depth limits checked before parsing.
#include "tests/fuzz/fuzz_support.h"

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString markup = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    imprint::fuzz::layOutDocument(QJsonObject{{"width", 300}, {"height", 200}, {"markup", markup}});
    return 0;
}
