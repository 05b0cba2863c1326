#pragma once
// Template documents the suites build again and again: a card whose root is one flex div
// the card's size, and the one-image card of the remote-image and deadline suites. The
// documents are what a client would POST (docs/templates.md).

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QString>

namespace imprint::test {

/// A `width`×`height` px template whose root is a flex div of that size, with `rootStyle`
/// added to (or overriding) its style, holding `children` (text, or an array of elements;
/// none when undefined).
inline QJsonObject flexCard(int width, int height, const QJsonObject &rootStyle,
                            const QJsonValue &children = QJsonValue(QJsonValue::Undefined))
{
    QJsonObject style{{QStringLiteral("display"), QStringLiteral("flex")},
                      {QStringLiteral("width"), width},
                      {QStringLiteral("height"), height}};
    for (auto it = rootStyle.begin(); it != rootStyle.end(); ++it)
        style.insert(it.key(), it.value());
    QJsonObject props{{QStringLiteral("style"), style}};
    if (!children.isUndefined())
        props.insert(QStringLiteral("children"), children);
    const QJsonObject root{{QStringLiteral("type"), QStringLiteral("div")}, {QStringLiteral("props"), props}};
    return QJsonObject{
        {QStringLiteral("width"), width}, {QStringLiteral("height"), height}, {QStringLiteral("root"), root}};
}

/// The root style of a white text card: DejaVu Sans at `fontSize` px (in `colour` when
/// given), `padding` px in, with `extra` added.
inline QJsonObject textCardStyle(int fontSize, int padding, const QString &colour = {}, const QJsonObject &extra = {})
{
    QJsonObject style{{QStringLiteral("padding"), padding},
                      {QStringLiteral("backgroundColor"), QStringLiteral("#ffffff")},
                      {QStringLiteral("fontFamily"), QStringLiteral("DejaVu Sans")},
                      {QStringLiteral("fontSize"), fontSize}};
    if (!colour.isEmpty())
        style.insert(QStringLiteral("color"), colour);
    for (auto it = extra.begin(); it != extra.end(); ++it)
        style.insert(it.key(), it.value());
    return style;
}

/// flexCard() named `name`, drawn by `engine` (its rendererType: takumi, satori or html).
inline QJsonObject engineCard(const QString &name, const QString &engine, int width, int height,
                              const QJsonObject &rootStyle,
                              const QJsonValue &children = QJsonValue(QJsonValue::Undefined))
{
    QJsonObject document = flexCard(width, height, rootStyle, children);
    document.insert(QStringLiteral("name"), name);
    document.insert(QStringLiteral("rendererType"), engine);
    return document;
}

/// The JSON text of a takumi template `name`: a white `width`×`height` px card filled by
/// one image, the image variable `art` (empty by default), which a render's tweak sets.
inline QByteArray imageVariableTemplate(const QString &name, int width, int height)
{
    const QJsonObject image{
        {QStringLiteral("type"), QStringLiteral("img")},
        {QStringLiteral("props"),
         QJsonObject{{QStringLiteral("src"), QStringLiteral("{{art}}")},
                     {QStringLiteral("style"),
                      QJsonObject{{QStringLiteral("width"), width}, {QStringLiteral("height"), height}}}}}};
    const QJsonObject white{{QStringLiteral("backgroundColor"), QStringLiteral("#ffffff")}};
    QJsonObject document = engineCard(name, QStringLiteral("takumi"), width, height, white, QJsonArray{image});
    document.insert(QStringLiteral("variables"),
                    QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("art")},
                                           {QStringLiteral("type"), QStringLiteral("image")},
                                           {QStringLiteral("default"), QString()}}});
    return QJsonDocument(document).toJson(QJsonDocument::Compact);
}

/// A `width`×`height` px template the html engine (Chromium) draws from `html`, with
/// its scripts run when `script` (htmlScript).
inline QJsonObject htmlCard(int width, int height, const QString &html, bool script = false)
{
    QJsonObject t{{QStringLiteral("width"), width},
                  {QStringLiteral("height"), height},
                  {QStringLiteral("rendererType"), QStringLiteral("html")},
                  {QStringLiteral("html"), html}};
    if (script)
        t.insert(QStringLiteral("htmlScript"), true);
    return t;
}

/// A `width`×`height` px template `name` whose root is one img of `src` (a URL or
/// "asset:<id>") that size.
inline QJsonObject imageCard(const QString &name, const QString &src, int width, int height)
{
    const QJsonObject style{{QStringLiteral("width"), QStringLiteral("%1px").arg(width)},
                            {QStringLiteral("height"), QStringLiteral("%1px").arg(height)}};
    const QJsonObject props{{QStringLiteral("src"), src}, {QStringLiteral("style"), style}};
    const QJsonObject img{{QStringLiteral("type"), QStringLiteral("img")}, {QStringLiteral("props"), props}};
    return QJsonObject{{QStringLiteral("name"), name},
                       {QStringLiteral("width"), width},
                       {QStringLiteral("height"), height},
                       {QStringLiteral("root"), img}};
}

} // namespace imprint::test
