// Custom properties (`--name`) and var() (CSS Custom Properties for Cascading Variables 1,
// https://www.w3.org/TR/css-variables-1/): an element's own custom properties are
// computed first, var() substituted among them with cycle detection (§2.3), then every
// other declaration has its var() substituted before it is parsed (§3).

#include "server/render/css/variables.h"
#include "server/render/style/style_builder.h"

#include <QSet>

namespace imprint::render::style_detail {

void StyleBuilder::resolveCustomProperties(const QJsonObject &declarations)
{
    QHash<QString, QString> raw;
    for (auto it = declarations.begin(); it != declarations.end(); ++it) {
        if (!it.key().startsWith(QLatin1String("--")))
            continue;
        if (!it.value().isString() && !it.value().isDouble()) {
            if (!it.value().isNull())
                warn(it.key(), QStringLiteral("expected a string or a number"));
            continue;
        }
        raw.insert(it.key(), valueText(it.value()));
    }
    if (raw.isEmpty())
        return;
    // Own declarations replace the inherited values of the same name (§2); a name whose
    // computation fails is the guaranteed-invalid value, i.e. undefined here.
    enum class State : quint8 { Pending, Resolving, Done };
    QHash<QString, State> state;
    for (auto it = raw.cbegin(); it != raw.cend(); ++it)
        state.insert(it.key(), State::Pending);
    QHash<QString, QString> &computed = m_s.customProperties;
    std::function<std::optional<QString>(const QString &)> resolve;
    resolve = [&](const QString &name) -> std::optional<QString> {
        auto st = state.find(name);
        if (st == state.end()) // not declared here: the inherited value, if any
            return computed.contains(name) ? std::optional<QString>(computed.value(name)) : std::nullopt;
        if (*st == State::Done)
            return computed.contains(name) ? std::optional<QString>(computed.value(name)) : std::nullopt;
        if (*st == State::Resolving) {
            // §2.3: every custom property in a dependency cycle is invalid at
            // computed-value time.
            warn(name, QStringLiteral("custom property is part of a var() cycle"));
            return std::nullopt;
        }
        *st = State::Resolving;
        const QString value = raw.value(name);
        std::optional<QString> out = value;
        if (css::containsVar(value)) {
            auto substituted = css::substituteVariables(value, resolve);
            if (substituted)
                out = std::move(*substituted);
            else
                out.reset();
            if (!substituted && !substituted.error().isEmpty())
                warn(name, substituted.error());
        }
        state[name] = State::Done;
        if (out)
            computed.insert(name, *out);
        else
            computed.remove(name);
        return out;
    };
    // Resolving in a fixed order; results do not depend on it.
    QStringList names = raw.keys();
    names.sort();
    for (const QString &name : names) {
        computed.remove(name); // the inherited value must not answer for a name declared here
        state[name] = State::Pending;
    }
    for (const QString &name : names)
        resolve(name);
}

std::optional<QString> StyleBuilder::substituteVars(const QString &name, const QString &value)
{
    const QHash<QString, QString> &vars = m_s.customProperties;
    auto out = css::substituteVariables(value, [&vars](const QString &n) -> std::optional<QString> {
        auto it = vars.constFind(n);
        return it == vars.constEnd() ? std::nullopt : std::optional<QString>(*it);
    });
    if (!out) {
        warn(name, QStringLiteral("%1; the property keeps its inherited or initial value").arg(out.error()));
        return std::nullopt;
    }
    return std::move(*out);
}

} // namespace imprint::render::style_detail
