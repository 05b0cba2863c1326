// Text on a path (see svg_text_path.h).

#include "server/render/document/svg_text_path.h"

#include "server/render/document/inline_svg_vocabulary.h"

#include "server/render/style/computed_style.h"
#include "server/render/resources/emoji.h"
#include "server/render/style/font_units.h"

#include <QTextBoundaryFinder>

#include <cmath>
#include <numeric>
#include <numbers>

namespace imprint::render {

QStringList graphemeClusters(const QString &text)
{
    QStringList clusters;
    QTextBoundaryFinder finder(QTextBoundaryFinder::Grapheme, text);
    qsizetype start = 0;
    while (finder.toNextBoundary() >= 0) {
        const qsizetype end = finder.position();
        if (end > start)
            clusters << text.mid(start, end - start);
        start = end;
    }
    return clusters;
}

QList<double> svgTextAdvances(const QStringList &clusters, const SvgTextFont &font, double letterSpacing)
{
    const QList<qreal> nominal = clusterAdvances(svgTextNominalStyle(font), clusters);
    const double k = font.size / kSvgTextNominalSize;
    QList<double> advances;
    advances.reserve(clusters.size());
    for (qsizetype i = 0; i < clusters.size(); ++i)
        advances << nominal.value(i) * k + (isEmojiCluster(clusters[i]) ? emojiAdvanceCorrection(font.size) : 0)
                        + letterSpacing;
    return advances;
}

double startOffsetAlong(const QString &offset, double length)
{
    const QString v = offset.trimmed();
    if (v.endsWith(u'%')) {
        bool ok = false;
        const double percent = v.chopped(1).toDouble(&ok);
        return ok && std::isfinite(percent) ? length * percent / 100 : 0;
    }
    const double n = inline_svg_detail::userUnits(v).value_or(0);
    return std::isfinite(n) ? n : 0;
}

QList<PathGlyph> layOutOnPath(const QPainterPath &path, const TextOnPath &run)
{
    QList<PathGlyph> glyphs;
    const double length = path.length();
    if (!(length > 0) || run.font.size <= 0 || !std::isfinite(run.font.size))
        return glyphs;
    const QStringList clusters = graphemeClusters(run.text);
    const QList<double> advances = svgTextAdvances(clusters, run.font, run.letterSpacing);
    const double total = std::accumulate(advances.begin(), advances.end(), 0.0);
    double at = run.startOffset;
    if (run.anchor == QLatin1String("middle"))
        at -= total / 2;
    else if (run.anchor == QLatin1String("end"))
        at -= total;
    for (qsizetype i = 0; i < clusters.size(); ++i) {
        // The middle of the glyph's own advance, without the spacing after it.
        const double middle = at + (advances[i] - run.letterSpacing) / 2;
        at += advances[i];
        if (middle < 0 || middle > length || clusters[i].trimmed().isEmpty())
            continue;
        const qreal t = path.percentAtLength(middle);
        // QPainterPath's angle is counter-clockwise on screen; SVG's rotate() turns clockwise.
        glyphs.append(PathGlyph{clusters[i], path.pointAtPercent(t), -path.angleAtPercent(t)});
    }
    return glyphs;
}

} // namespace imprint::render
