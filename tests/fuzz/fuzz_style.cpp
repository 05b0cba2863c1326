// libFuzzer harness: CSS values. The first byte picks a property of the style table, the
// rest is its value on an element with text inside a flex row, then style and layout.
#include "server/render/style/properties.h"
#include "tests/fuzz/fuzz_harness.h"

#include <QJsonArray>
#include <QJsonObject>

void imprint::fuzz::fuzzOne(QByteArrayView input)
{
    if (input.isEmpty())
        return;
    const auto properties = imprint::render::cssProperties();
    const auto &property = properties[quint8(input.front()) % properties.size()];
    const QString value = QString::fromUtf8(input.sliced(1));
    const QJsonObject child{{"type", "div"},
                            {"props", QJsonObject{{"style", QJsonObject{{QString(property.name), value}}},
                                                  {"children", QJsonArray{"Fuzzed text", "עברית 中文"}}}}};
    const QJsonObject root{
        {"type", "div"},
        {"props", QJsonObject{{"style", QJsonObject{{"display", "flex"}, {"width", 300}, {"height", 200}}},
                              {"children", QJsonArray{child, child}}}}};
    imprint::fuzz::layOutDocument(QJsonObject{{"width", 300}, {"height", 200}, {"root", root}});
}
