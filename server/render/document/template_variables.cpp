// Template variables: their declarations (`variables`) and the values a render gives
// them (page variables, tweaks), checked against their types and the limits
// (docs/templates.md, "Variables").

#include "server/render/document/template_variables.h"
#include "server/render/css/parse.h"

#include <QJsonArray>
#include <QRegularExpression>

#include <algorithm>

namespace imprint::render {

namespace template_detail {

namespace {

/// Checks one variable value against its type and the length limit; returns it as text.
std::optional<QString> validateValue(const TemplateVariable &var, const QJsonValue &value, const QString &field,
                                     const TemplateLimits &limits, RenderError *error)
{
    QString text;
    if (value.isString())
        text = value.toString();
    else if (value.isDouble())
        text = QString::number(value.toDouble(), 'g', 15);
    else if (value.isNull())
        text.clear();
    else {
        setError(error, makeError(field, QStringLiteral("a variable value must be a string or a number"),
                                  RenderErrorCode::InvalidVariable));
        return std::nullopt;
    }
    if (text.size() > limits.maxValueLength) {
        setError(error, makeError(field,
                                  QStringLiteral("value is %1 characters long, the limit is %2")
                                      .arg(text.size())
                                      .arg(limits.maxValueLength),
                                  RenderErrorCode::ValueTooLong));
        return std::nullopt;
    }
    auto bad = [&](const QString &why) {
        setError(error, makeError(field, why, RenderErrorCode::InvalidVariable));
        return std::nullopt;
    };
    switch (var.type) {
    case TemplateVariable::Type::Text: break;
    case TemplateVariable::Type::Color:
        if (!parseColor(text, Qt::black))
            return bad(QStringLiteral("\"%1\" is not a CSS colour").arg(text.left(80)));
        break;
    case TemplateVariable::Type::Number:
        if (!value.isDouble() && !css::number(text))
            return bad(QStringLiteral("\"%1\" is not a number").arg(text.left(80)));
        text = text.trimmed();
        break;
    case TemplateVariable::Type::Image:
        // data: URLs are decoded as they are, http(s) ones fetched under the server's
        // remote image policy (docs/remote-images.md); `asset:ID` and an asset's URL
        // (…/api/v1/files/<sha256>.<ext>) are resolved by the request's ImageLoader within
        // the caller's space (docs/fonts-and-images.md).
        if (!text.isEmpty() && !text.startsWith(QLatin1String("data:"), Qt::CaseInsensitive)
            && !text.startsWith(QLatin1String("http://"), Qt::CaseInsensitive)
            && !text.startsWith(QLatin1String("https://"), Qt::CaseInsensitive)
            && !text.startsWith(QLatin1String("asset:"), Qt::CaseInsensitive)
            && !text.contains(QLatin1String("/api/v1/files/"))) {
            setError(error, makeError(field,
                                      QStringLiteral("\"%1\": an image is a data:, http: or https: URL, asset:ID or an "
                                                     "asset's URL")
                                          .arg(text.left(80)),
                                      RenderErrorCode::ImageRefused));
            return std::nullopt;
        }
        break;
    }
    return text;
}

} // namespace

/// Reads the template's `variables` ([{name, type, default}], unique names, valid
/// defaults) into `t`; false with `error` set when one is invalid.
bool parseVariables(const QJsonObject &document, Template &t, const TemplateLimits &limits, RenderError *error)
{
    // Variables: [{name, type, default}] with unique names and valid defaults.
    const QJsonValue vars = document.value(QLatin1String("variables"));
    if (!vars.isUndefined() && !vars.isNull() && !vars.isArray()) {
        setError(error, makeError(QStringLiteral("variables"), QStringLiteral("must be an array")));
        return false;
    }
    static const QRegularExpression nameRe(QStringLiteral("^[A-Za-z_][A-Za-z0-9_.\\-]{0,63}$"));
    const QJsonArray list = vars.toArray();
    for (qsizetype i = 0; i < list.size(); ++i) {
        const QString field = QStringLiteral("variables[%1]").arg(i);
        const QJsonObject v = list.at(i).toObject();
        const QString name = v.value(QLatin1String("name")).toString();
        if (!nameRe.match(name).hasMatch()) {
            setError(error, makeError(field + QLatin1String(".name"),
                                      QStringLiteral("a variable name is letters, digits, _ . - (at most 64)"),
                                      RenderErrorCode::InvalidVariable));
            return false;
        }
        for (const TemplateVariable &other : t.variables)
            if (other.name == name) {
                setError(error, makeError(field + QLatin1String(".name"),
                                          QStringLiteral("duplicate variable \"%1\"").arg(name),
                                          RenderErrorCode::InvalidVariable));
                return false;
            }
        TemplateVariable var;
        var.name = name;
        // Absent or null is text; any other non-string (an object, a number) is refused,
        // not read as text (QJsonValue::toString() would give the default).
        const QJsonValue typeValue = v.value(QLatin1String("type"));
        const QString type = typeValue.isUndefined() || typeValue.isNull() ? QStringLiteral("text")
                                                                           : typeValue.toString();
        if (type == QLatin1String("text"))
            var.type = TemplateVariable::Type::Text;
        else if (type == QLatin1String("color"))
            var.type = TemplateVariable::Type::Color;
        else if (type == QLatin1String("number"))
            var.type = TemplateVariable::Type::Number;
        else if (type == QLatin1String("image"))
            var.type = TemplateVariable::Type::Image;
        else {
            setError(error, makeError(field + QLatin1String(".type"),
                                      QStringLiteral("type must be text, color, number or image"),
                                      RenderErrorCode::InvalidVariable));
            return false;
        }
        const QJsonValue def = v.value(QLatin1String("default"));
        if (!def.isUndefined() && !def.isNull()) {
            auto text = validateValue(var, def, field + QLatin1String(".default"), limits, error);
            if (!text)
                return false;
            var.defaultValue = *text;
        } else if (var.type == TemplateVariable::Type::Color) {
            var.defaultValue = QStringLiteral("transparent");
        } else if (var.type == TemplateVariable::Type::Number) {
            var.defaultValue = QStringLiteral("0");
        }
        t.variables.push_back(var);
    }
    return true;
}

} // namespace template_detail

using template_detail::makeError;
using template_detail::setError;
using template_detail::validateValue;

common::Expected<QHash<QString, QString>, RenderError> resolveVariables(const Template &tmpl,
                                                                        const QJsonObject &pageValues,
                                                                        const QJsonObject &tweaks,
                                                                        const TemplateLimits &limits)
{
    RenderError err;
    RenderError *error = &err;
    QHash<QString, QString> values;
    for (const TemplateVariable &v : tmpl.variables)
        values.insert(v.name, v.defaultValue);
    auto apply = [&](const QJsonObject &given, const QString &prefix) {
        for (auto it = given.begin(); it != given.end(); ++it) {
            const QString field = prefix + it.key();
            auto var = std::find_if(tmpl.variables.begin(), tmpl.variables.end(),
                                    [&](const TemplateVariable &v) { return v.name == it.key(); });
            if (var == tmpl.variables.end()) {
                setError(error, makeError(field, QStringLiteral("the template has no variable \"%1\"").arg(it.key()),
                                          RenderErrorCode::UnknownVariable));
                return false;
            }
            auto text = validateValue(*var, it.value(), field, limits, error);
            if (!text)
                return false;
            values.insert(var->name, *text);
        }
        return true;
    };
    if (!apply(pageValues, QStringLiteral("variables.")) || !apply(tweaks, QStringLiteral("tweaks.")))
        return err;
    return values;
}

} // namespace imprint::render
