#pragma once
// Helpers shared by the tst_style_* suites: a ComputedStyle from a JSON declaration block
// as the template compiler gives it, and colour comparison within rounding.

#include "server/render/css/font_features.h"
#include "server/render/css/parse.h"
#include "server/render/style/computed_style.h"
#include "server/render/style/properties.h"

#include <QElapsedTimer>
#include <QHash>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSet>
#include <QTest>

#include <cmath>
#include <set>

using namespace imprint::render;

Q_DECLARE_METATYPE(imprint::render::Length)

namespace imprint::render::test {

/// The computed style of the JSON declarations `json` for an element `tag` under `parent`
/// (warnings into `*warnings`), as the template compiler computes a `style` prop.
inline ComputedStyle style(const char *json, const ComputedStyle *parent = nullptr, QStringList *warnings = nullptr,
                           const QString &tag = QStringLiteral("div"), float rootFontSize = 16)
{
    const QJsonObject decl = QJsonDocument::fromJson(json).object();
    return computeStyle(decl, parent, tag, rootFontSize, QStringLiteral("root.props.style"), warnings);
}

/// style() of an already parsed declaration block, on a div.
inline ComputedStyle styleOf(const QJsonObject &decl, const ComputedStyle *parent = nullptr,
                             QStringList *warnings = nullptr)
{
    return computeStyle(decl, parent, QStringLiteral("div"), 16, QStringLiteral("root.props.style"), warnings);
}

/// The warnings computing the style of the JSON declarations `json` on a div gives.
inline QStringList warningsOf(const char *json)
{
    QStringList warnings;
    style(json, nullptr, &warnings);
    return warnings;
}

/// A colour from 8-bit channels.
inline QColor rgba(int r, int g, int b, int a = 255)
{
    return QColor(r, g, b, a);
}

/// Whether two colours agree within one step per channel (rounding of the colour math).
inline bool sameColor(const QColor &a, const QColor &b)
{
    return qAbs(a.red() - b.red()) <= 1 && qAbs(a.green() - b.green()) <= 1 && qAbs(a.blue() - b.blue()) <= 1
           && qAbs(a.alpha() - b.alpha()) <= 1;
}

} // namespace imprint::render::test

using namespace imprint::render::test;
