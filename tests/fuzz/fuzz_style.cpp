// libFuzzer harness: CSS values. The first byte picks a property of the style table, the
// rest is its value on an element with text inside a flex row, then style and layout.
#include "server/render/style/properties.h"
#include "tests/fuzz/fuzz_support.h"

#include <QJsonArray>
#include <QJsonObject>

extern "C" int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    imprint::fuzz::initialize(argc, argv);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const auto properties = imprint::render::cssProperties();
    const auto &property = properties[data[0] % properties.size()];
    const QString value = QString::fromUtf8(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    const QJsonObject child{{"type", "div"},
                            {"props", QJsonObject{{"style", QJsonObject{{QString(property.name), value}}},
                                                  {"children", QJsonArray{"Fuzzed text", "עברית 中文"}}}}};
    const QJsonObject root{
        {"type", "div"},
        {"props", QJsonObject{{"style", QJsonObject{{"display", "flex"}, {"width", 300}, {"height", 200}}},
                              {"children", QJsonArray{child, child}}}}};
    imprint::fuzz::layOutDocument(QJsonObject{{"width", 300}, {"height", 200}, {"root", root}});
    return 0;
}
