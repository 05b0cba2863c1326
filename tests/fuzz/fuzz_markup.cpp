// libFuzzer harness: a template's HTML `markup` (libgumbo → the node tree) through style
// and layout, with the node and depth limits checked before parsing.
#include "tests/fuzz/fuzz_harness.h"

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    const QString markup = QString::fromUtf8(input);
    imprint::fuzz::layOutDocument(QJsonObject{{"width", 300}, {"height", 200}, {"markup", markup}});
}
