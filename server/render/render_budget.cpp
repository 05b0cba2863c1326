// The render budget (see render_budget.h).

#include "server/render/render_budget.h"
#include "server/render/document/markup.h"
#include "server/render/paint/geometry.h"
#include "server/render/paint/paint_order.h"
#include "server/render/resources/image_decoder.h"

#include <cmath>

namespace imprint::render {

namespace {

RenderError budgetError(const QString &field, const QString &message)
{
    return RenderError{field, message, RenderErrorCode::RenderBudgetExceeded};
}

struct EffectCost {
    qint64 layers = 0;
    double area = 0;
    int maxNesting = 0;
};

void addLayer(EffectCost &cost, const QRectF &layer, const QRectF &canvas)
{
    ++cost.layers;
    const QRectF r = layer & canvas;
    if (r.isValid())
        cost.area += r.width() * r.height();
}

void countEffects(const LayoutBox &box, const QRectF &canvas, EffectCost &cost, int nesting = 0)
{
    if (box.node) {
        const ComputedStyle &s = box.node->style;
        const EffectStyle &fx = s.effects;
        if (!box.node->isText()
            && (!fx.filter.empty() || fx.clipPath || !fx.maskImage.empty() || fx.mixBlendMode != BlendMode::Normal)) {
            // One offscreen layer over the subtree's ink, blurred once per blur or shadow.
            const QRectF ink = inkBounds(box);
            int blurs = 0;
            for (const FilterOp &op : fx.filter)
                blurs += op.kind == FilterOp::Kind::Blur || op.kind == FilterOp::Kind::DropShadow;
            for (int i = 0; i <= blurs; ++i)
                addLayer(cost, ink, canvas);
            cost.maxNesting = std::max(cost.maxNesting, ++nesting);
        }
        if (!fx.backdropFilter.empty()) {
            // Both backends copy (or, in SVG, paint again) only the backdrop under the border
            // box and the filter's reach, then filter and cut that copy: two layers of that
            // size, not of the canvas (a 320×180 glass thumbnail was refused at 1200×630).
            const qreal e = paint_detail::filterReach(fx.backdropFilter);
            const QRectF source = box.borderBox.adjusted(-e, -e, e, e);
            addLayer(cost, source, canvas);
            addLayer(cost, source, canvas);
        }
        for (const Shadow &sh : s.boxShadow) {
            const qreal e = std::abs(sh.spread) + 1.5 * sh.blur + 2;
            addLayer(cost, box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e, -e, e, e), canvas);
        }
        if (box.node->isText()) {
            for (const Shadow &sh : s.textShadow) {
                if (sh.color.alpha() == 0)
                    continue;
                const qreal e = s.fontSize + 1.5 * sh.blur + 2;
                addLayer(cost, box.borderBox.translated(sh.offsetX, sh.offsetY).adjusted(-e, -e, e, e), canvas);
            }
        }
    }
    for (const LayoutBox &child : box.children)
        countEffects(child, canvas, cost, nesting);
}

constexpr qint64 kBytesPerPixel = 4; // ARGB32, what every layer and decoded image is
constexpr double kMiB = 1024.0 * 1024.0;

/// The largest effect layer the raster player allocates (raster.cpp, kMaxLayerPixels);
/// a bigger one skips its subtree, so it costs nothing.
constexpr qint64 kMaxEffectLayerPixels = 32LL * 1024 * 1024;

/// The layers open along one path from the root, as the raster player holds them.
struct LayerPath {
    QTransform toDevice; // page px → device px
    QRect device; // the enclosing layer's rect (or the canvas), device px
    int depth = 0;
    int groups = 0; // opacity groups among the open layers
    qint64 bytes = 0;
    bool inRaster = false; // inside an effect layer: groups there are painted offscreen
    bool treeBlends = false; // an element below the root has a mix-blend-mode: isolated groups may exist
};

struct LayerCost {
    int maxDepth = 0;
    qint64 maxBytes = 0;
    int groupsAtMaxBytes = 0;
    int groupsAtMaxDepth = 0;
    bool replays = false; // a backdrop or blend replays what came before onto an image
};

/// `context`: the matrix `parent` accumulated in its 3D rendering context when it
/// preserves 3D (the recorder's Context3d), else null.
void countLayers(const LayoutBox &box, const LayoutBox *parent, const TransformMatrix *context, LayerPath path,
                 bool groupsAlways, LayerCost &cost)
{
    if (!box.node || box.node->isText())
        return;
    const ComputedStyle &s = box.node->style;
    // The recorder paints nothing of such a subtree.
    if (s.display == Display::None || s.opacity <= 0)
        return;
    TransformMatrix accumulated = transformMatrix(box, parent);
    if (context)
        accumulated = *context * accumulated;
    if (s.backfaceVisibility == BackfaceVisibility::Hidden && accumulated.isBackFacing())
        return;
    QTransform transform;
    if (!s.transform.empty())
        transform = transformInContext(accumulated, context);
    const EffectStyle &fx = s.effects;
    const bool effects
        = !fx.filter.empty() || fx.clipPath || !fx.maskImage.empty() || fx.mixBlendMode != BlendMode::Normal;
    cost.replays = cost.replays || !fx.backdropFilter.empty() || fx.mixBlendMode != BlendMode::Normal;
    auto open = [&](const QRect &rect, bool group) {
        ++path.depth;
        path.groups += group;
        path.bytes += qint64(rect.width()) * rect.height() * kBytesPerPixel;
        path.device = rect; // a nested layer's device is this layer
        if (path.depth > cost.maxDepth) {
            cost.maxDepth = path.depth;
            cost.groupsAtMaxDepth = path.groups;
        }
        if (path.bytes > cost.maxBytes) {
            cost.maxBytes = path.bytes;
            cost.groupsAtMaxBytes = path.groups;
        }
    };
    if (transform.type() == QTransform::TxProject) {
        // QPainterPlayer::projectiveScope(): the scope painted flat into a layer, which is
        // then mapped onto an image of the device rect it covers.
        const ProjectiveLayer layer = projectiveLayer(inkBoundsInContext(box, accumulated), transform * path.toDevice,
                                                      path.device, kMaxEffectLayerPixels);
        if (layer.isEmpty())
            return;
        open(layer.target, false);
        open(QRect(QPoint(0, 0), layer.size), false);
        path.toDevice = QTransform::fromTranslate(-layer.source.left(), -layer.source.top())
                        * QTransform::fromScale(layer.scale, layer.scale);
        path.inRaster = true;
    } else {
        path.toDevice = transform * path.toDevice;
    }
    if (effects) {
        // QPainterPlayer::operator()(PushEffects): the ink plus the filters' reach around
        // the device, or nothing at all when empty or too big.
        const qreal scale = std::sqrt(std::abs(path.toDevice.determinant()));
        const int margin = int(std::ceil(paint_detail::filterReach(fx.filter) * scale));
        const QRect rect = path.toDevice.mapRect(inkBounds(box)).toAlignedRect()
                           & path.device.adjusted(-margin, -margin, margin, margin);
        if (scale <= 0 || rect.isEmpty() || qint64(rect.width()) * rect.height() > kMaxEffectLayerPixels)
            return;
        open(rect, false);
        path.inRaster = true;
    } else if (path.treeBlends && isolatesBlending(box, parent)) {
        // Recorder::recordBox(): an isolated group around a blend mode, on every device.
        const QRect rect = path.toDevice.mapRect(inkBounds(box)).toAlignedRect() & path.device;
        if (rect.isEmpty())
            return;
        open(rect, true);
    } else if (s.opacity < 1 && !box.children.empty() && (groupsAlways || path.inRaster)) {
        // QPainterPlayer::operator()(PushLayer): the group's ink bounds on the device.
        const QRect rect = path.toDevice.mapRect(inkBounds(box)).toAlignedRect() & path.device;
        if (rect.isEmpty())
            return;
        open(rect, true);
    }
    for (const LayoutBox &child : box.children)
        countLayers(child, &box, s.preserves3d() ? &accumulated : nullptr, path, groupsAlways, cost);
}

} // namespace

std::optional<RenderError> checkLayerBudget(const LayoutBox &root, QSize canvas, qreal scale, GroupLayers groups,
                                            const RenderBudget &budget)
{
    const QSize device(int(std::lround(canvas.width() * scale)), int(std::lround(canvas.height() * scale)));
    LayerPath start;
    start.treeBlends = hasBlendingDescendant(root);
    start.toDevice = QTransform::fromScale(scale, scale);
    start.device = QRect(QPoint(0, 0), device);
    LayerCost cost;
    countLayers(root, nullptr, nullptr, start, groups == GroupLayers::Always, cost);
    if (groups == GroupLayers::InRasterScopes && cost.replays) {
        // A backdrop or a blend mode paints everything before it again onto an image,
        // opacity groups as layers.
        cost = LayerCost{};
        countLayers(root, nullptr, nullptr, start, true, cost);
    }
    const double canvasBytes = double(device.width()) * device.height() * kBytesPerPixel;
    const double maxBytes = budget.layerBytesPerCanvas * canvasBytes + double(budget.layerBytesBase);
    if (double(cost.maxBytes) > maxBytes)
        return budgetError(
            cost.groupsAtMaxBytes > 0 ? QStringLiteral("opacity") : QStringLiteral("effects"),
            QStringLiteral("the render holds %1 MiB of offscreen layers (opacity below 1 around children, filter, "
                           "clipPath, maskImage, mixBlendMode, a transform seen in perspective) open at once; at most %2 MiB are allowed for a %3×%4 "
                           "px image")
                .arg(cost.maxBytes / kMiB, 0, 'f', 1)
                .arg(maxBytes / kMiB, 0, 'f', 1)
                .arg(device.width())
                .arg(device.height()));
    if (cost.maxDepth > budget.maxLayerNesting)
        return budgetError(
            cost.groupsAtMaxDepth > 0 ? QStringLiteral("opacity") : QStringLiteral("effects"),
            QStringLiteral("the render nests offscreen layers (opacity below 1 around children, filter, clipPath, "
                           "maskImage, mixBlendMode, a transform seen in perspective) %1 deep; at most %2 levels are allowed")
                .arg(cost.maxDepth)
                .arg(budget.maxLayerNesting));
    return std::nullopt;
}

qint64 imageByteLimit(QSize canvas, qreal scale, const RenderBudget &budget)
{
    const double deviceBytes = double(canvas.width()) * canvas.height() * scale * scale * kBytesPerPixel;
    return qint64(budget.imageBytesPerCanvas * deviceBytes) + budget.imageBytesBase;
}

RenderImageBudget::RenderImageBudget(qint64 maxBytes, QSize canvas, qreal scale)
    : m_max(maxBytes)
    , m_canvas(canvas)
    , m_scale(scale)
{ }

namespace {

/// The pixel size a data: URL's header states, without decoding a pixel; nullopt for
/// SVG, other URLs and unreadable headers.
std::optional<QSize> headerSize(const QString &url)
{
    if (!url.startsWith(QLatin1String("data:"), Qt::CaseInsensitive))
        return std::nullopt;
    const auto bytes = dataUrlBytes(url);
    return bytes ? imageHeaderSize(*bytes) : std::nullopt;
}

/// Whether the decoder would decode an image of `size` at all (image_decoder.h): one it
/// refuses allocates nothing and is left to warn as it does.
bool decodable(QSize size)
{
    const ImageDecodeLimits limits;
    return size.width() <= limits.maxSide && size.height() <= limits.maxSide
           && qint64(size.width()) * size.height() <= limits.maxPixels;
}

} // namespace

common::Expected<common::Done, QString> RenderImageBudget::add(const QString &url, QSize size, qint64 bytes)
{
    if (m_used + bytes <= m_max) {
        m_used += bytes;
        return common::Done{};
    }
    m_refusedUrl = url;
    const QSize device(int(std::lround(m_canvas.width() * m_scale)), int(std::lround(m_canvas.height() * m_scale)));
    m_refusal = QStringLiteral("the image (%1×%2 px, %3 MiB decoded) would bring the render's decoded images to %4 "
                               "MiB; at most %5 MiB are allowed for a %6×%7 px image")
                    .arg(size.width())
                    .arg(size.height())
                    .arg(bytes / kMiB, 0, 'f', 1)
                    .arg((m_used + bytes) / kMiB, 0, 'f', 1)
                    .arg(m_max / kMiB, 0, 'f', 1)
                    .arg(device.width())
                    .arg(device.height());
    return m_refusal;
}

common::Expected<QImage, QString> RenderImageBudget::load(const QString &url, const ImageLoader &loader)
{
    if (const auto it = m_loaded.constFind(url); it != m_loaded.constEnd())
        return *it;
    if (refused())
        return QStringLiteral("not loaded: the render's decoded images are over budget");
    // While the largest image the decoder makes still fits, the header need not be read.
    const ImageDecodeLimits limits;
    const bool anyFits = m_max - m_used >= limits.maxPixels * kBytesPerPixel;
    const auto announced = anyFits ? std::nullopt : headerSize(url);
    if (announced && decodable(*announced)
        && m_used + qint64(announced->width()) * announced->height() * kBytesPerPixel > m_max) {
        const auto added = add(url, *announced, qint64(announced->width()) * announced->height() * kBytesPerPixel);
        if (!added)
            return added.error();
        return QImage();
    }
    const ImageResult loaded = loader ? loader(url) : decodeDataUrlImage(url);
    if (!loaded || loaded->isNull())
        return loaded.error_or(QString());
    const QImage &image = *loaded;
    if (const auto added = add(url, image.size(), image.sizeInBytes()); !added)
        return added.error();
    m_loaded.insert(url, image);
    return image;
}

common::Expected<common::Done, QString> RenderImageBudget::addBackground(const QString &url, const ImageLoader &loader)
{
    if (refused())
        return QString();
    QSize size = m_backgroundSizes.value(url);
    if (size.isEmpty()) {
        if (const auto announced = headerSize(url); announced && decodable(*announced)) {
            size = *announced;
        } else {
            // SVG, or a header we cannot read: the decoder says (and the cache keeps the
            // pixels for the painter).
            const ImageResult image = loader ? loader(url) : decodeDataUrlImage(url);
            if (!image || image->isNull())
                return common::Done{};
            size = image->size();
        }
        m_backgroundSizes.insert(url, size);
    }
    return add(url, size, qint64(size.width()) * size.height() * kBytesPerPixel);
}

RenderError RenderImageBudget::error(const QString &field) const
{
    return budgetError(field, m_refusal);
}

namespace {

const Node *nodeWithSource(const Node &node, const QString &url)
{
    if (node.isImage() && node.src == url)
        return &node;
    for (const auto &child : node.children)
        if (const Node *found = nodeWithSource(*child, url))
            return found;
    return nullptr;
}

std::optional<RenderError> countBackgrounds(const Node &node, RenderImageBudget &budget, const ImageLoader &loader)
{
    if (!node.isText()) {
        // Mask images (CSS Masking 1 §7) are decoded and painted per box just as
        // background images are.
        const std::pair<const std::vector<BackgroundLayer> *, QString> lists[] = {
            {&node.style.backgroundLayers, QStringLiteral("backgroundImage")},
            {&node.style.effects.maskImage, QStringLiteral("maskImage")}};
        for (const auto &[layers, field] : lists)
            for (const BackgroundLayer &layer : *layers) {
                if (layer.gradient || layer.imageUrl.isEmpty())
                    continue;
                if (const auto added = budget.addBackground(layer.imageUrl, loader); !added)
                    return budgetError(field, QStringLiteral("%1 of element %2: %3").arg(field, node.id, added.error()));
            }
    }
    for (const auto &child : node.children)
        if (auto over = countBackgrounds(*child, budget, loader))
            return over;
    return std::nullopt;
}

} // namespace

std::optional<RenderError> checkImageBudget(const Node &root, RenderImageBudget &budget, const ImageLoader &loader)
{
    if (budget.refused()) {
        const Node *img = nodeWithSource(root, budget.refusedUrl());
        return budget.error(img ? img->srcField : QStringLiteral("src"));
    }
    return countBackgrounds(root, budget, loader);
}

std::optional<RenderError> checkEffectBudget(const LayoutBox &root, QSize canvas, const RenderBudget &budget)
{
    // A shadow reaches at most its own extent past the canvas; beyond that it is clipped
    // before it is blurred, so the canvas bounds what a layer can cost.
    const QRectF bounds = QRectF(QPointF(0, 0), QSizeF(canvas)).adjusted(-512, -512, 512, 512);
    EffectCost cost;
    countEffects(root, bounds, cost);
    if (cost.maxNesting > budget.maxEffectNesting)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render nests effect layers (filter, clipPath, maskImage, mixBlendMode) %1 "
                           "deep; at most %2 levels are allowed")
                .arg(cost.maxNesting)
                .arg(budget.maxEffectNesting));
    if (cost.layers > budget.maxEffectLayers)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render draws %1 blurred shadow and effect layers; at most %2 are allowed")
                .arg(cost.layers)
                .arg(budget.maxEffectLayers));
    const double maxArea
        = budget.blurredAreaPerCanvas * canvas.width() * canvas.height() + double(budget.blurredAreaBase);
    if (cost.area > maxArea)
        return budgetError(
            QStringLiteral("effects"),
            QStringLiteral("the render's shadows and effects blur %1 megapixels; at most %2 are allowed for a %3×%4 px "
                           "image")
                .arg(cost.area / 1e6, 0, 'f', 1)
                .arg(maxArea / 1e6, 0, 'f', 1)
                .arg(canvas.width())
                .arg(canvas.height()));
    return std::nullopt;
}

std::optional<RenderError> checkHtmlBudget(const QString &html, int maxElements, int maxDepth,
                                           const RenderBudget &budget)
{
    const auto nesting = htmlNesting(html, maxElements);
    if (!nesting)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html has more than %1 elements").arg(maxElements));
    if (nesting->depth > maxDepth)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html nests elements %1 deep; at most %2 levels are allowed")
                               .arg(nesting->depth)
                               .arg(maxDepth));
    if (nesting->tables > budget.maxHtmlTableNesting)
        return budgetError(QStringLiteral("html"),
                           QStringLiteral("the html nests tables %1 deep; at most %2 levels are allowed")
                               .arg(nesting->tables)
                               .arg(budget.maxHtmlTableNesting));
    return std::nullopt;
}

} // namespace imprint::render
