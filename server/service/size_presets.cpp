// Size presets (size_presets.h).
#include "server/service/size_presets.h"

#include <QJsonArray>
#include <QRegularExpression>

namespace imprint::service {

using store::ProblemCode;
using store::ServiceError;

namespace {

constexpr int kMaxSide = 16384; // px of one side of an own size (the plans bound the render)
constexpr int kMaxOwnSizes = 32;

ServiceError invalidSizes(const QString &field, const QString &message)
{
    return ServiceError::invalid(ProblemCode::InvalidTemplate, QStringLiteral("document.") + field,
                                 QStringLiteral("Template is invalid at '%1': %2").arg(field, message));
}

const NamedSize *builtin(const QString &name)
{
    for (const NamedSize &s : builtinSizes())
        if (s.name == name)
            return &s;
    return nullptr;
}

QStringList builtinNames()
{
    QStringList names;
    for (const NamedSize &s : builtinSizes())
        names << s.name;
    return names;
}

bool wholeSide(const QJsonValue &v)
{
    return v.isDouble() && v.toDouble() == double(v.toInteger()) && v.toInteger() >= 1 && v.toInteger() <= kMaxSide;
}

} // namespace

const QList<NamedSize> &builtinSizes()
{
    static const QList<NamedSize> sizes = {
        {QStringLiteral("og"), {1200, 630}},         {QStringLiteral("twitter"), {1200, 675}},
        {QStringLiteral("linkedin"), {1200, 627}},   {QStringLiteral("square"), {1080, 1080}},
        {QStringLiteral("portrait"), {1080, 1350}},  {QStringLiteral("story"), {1080, 1920}},
        {QStringLiteral("pinterest"), {1000, 1500}},
    };
    return sizes;
}

std::optional<ServiceError> checkTemplateSizes(const QJsonObject &document)
{
    const QJsonValue sizes = document.value(QStringLiteral("sizes"));
    if (sizes.isUndefined() || sizes.isNull())
        return std::nullopt;
    if (sizes.isArray()) {
        const QJsonArray list = sizes.toArray();
        for (qsizetype i = 0; i < list.size(); ++i) {
            if (!list.at(i).isString() || !builtin(list.at(i).toString().toLower()))
                return invalidSizes(QStringLiteral("sizes.%1").arg(i),
                                    QStringLiteral("a list of sizes names built-in ones: %1 (own sizes are an object "
                                                   "of {\"width\", \"height\"})")
                                        .arg(builtinNames().join(QStringLiteral(", "))));
        }
        return std::nullopt;
    }
    if (!sizes.isObject())
        return invalidSizes(QStringLiteral("sizes"),
                            QStringLiteral("must be a list of built-in size names or an object of named sizes"));
    const QJsonObject own = sizes.toObject();
    if (own.size() > kMaxOwnSizes)
        return invalidSizes(QStringLiteral("sizes"), QStringLiteral("at most %1 sizes").arg(kMaxOwnSizes));
    static const QRegularExpression nameRule(QStringLiteral("^[a-z0-9_-]{1,40}$"));
    for (auto it = own.begin(); it != own.end(); ++it) {
        const QString field = QStringLiteral("sizes.") + it.key();
        if (!nameRule.match(it.key()).hasMatch())
            return invalidSizes(field, QStringLiteral("a size name is 1 to 40 of a-z, 0-9, '_' and '-'"));
        if (!it.value().isObject())
            return invalidSizes(field, QStringLiteral("must be {\"width\": W, \"height\": H}"));
        const QJsonObject size = it.value().toObject();
        for (const QString &side : {QStringLiteral("width"), QStringLiteral("height")}) {
            if (!wholeSide(size.value(side)))
                return invalidSizes(field + QLatin1Char('.') + side,
                                    QStringLiteral("must be a whole number of px from 1 to %1").arg(kMaxSide));
        }
        for (auto member = size.begin(); member != size.end(); ++member) {
            if (member.key() != QLatin1String("width") && member.key() != QLatin1String("height"))
                return invalidSizes(field + QLatin1Char('.') + member.key(),
                                    QStringLiteral("a size has only width and height"));
        }
    }
    return std::nullopt;
}

QList<NamedSize> declaredSizes(const QJsonObject &document)
{
    QList<NamedSize> out;
    const QJsonValue sizes = document.value(QStringLiteral("sizes"));
    if (sizes.isArray()) {
        for (const QJsonValue &v : sizes.toArray()) {
            if (const NamedSize *s = builtin(v.toString().toLower()))
                out.append(*s);
        }
    } else if (sizes.isObject()) {
        const QJsonObject own = sizes.toObject();
        for (auto it = own.begin(); it != own.end(); ++it) {
            const QJsonObject size = it.value().toObject();
            out.append({it.key(), QSize(size.value(QStringLiteral("width")).toInt(),
                                        size.value(QStringLiteral("height")).toInt())});
        }
    }
    return out;
}

QList<NamedSize> availableSizes(const QJsonObject &document)
{
    QList<NamedSize> out = builtinSizes();
    if (!document.value(QStringLiteral("sizes")).isObject())
        return out;
    for (const NamedSize &own : declaredSizes(document)) {
        const auto same = std::find_if(out.begin(), out.end(), [&](const NamedSize &s) { return s.name == own.name; });
        if (same != out.end())
            same->size = own.size;
        else
            out.append(own);
    }
    return out;
}

store::Result<QSize> resolveSize(const QJsonObject &document, const QString &name)
{
    const QString wanted = name.trimmed().toLower();
    const QList<NamedSize> sizes = availableSizes(document);
    QStringList names;
    for (const NamedSize &s : sizes) {
        if (s.name == wanted)
            return s.size;
        names << s.name;
    }
    return ServiceError::invalid(ProblemCode::UnknownSize, QStringLiteral("size"),
                                 QStringLiteral("'%1' is not a size of this template; use one of %2.")
                                     .arg(name, names.join(QStringLiteral(", "))));
}

store::Result<QSize> resolveRenderSize(const QJsonObject &document, const QString &size, int width, int height)
{
    if (size.isEmpty())
        return QSize(width, height);
    if (width > 0 || height > 0)
        return ServiceError::invalid(ProblemCode::SizeConflict, QStringLiteral("size"),
                                     QStringLiteral("Give either 'size' or 'width'/'height', not both: the size "
                                                    "names both sides."));
    return resolveSize(document, size);
}

} // namespace imprint::service
