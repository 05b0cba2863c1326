#include "server/render/document/tailwind_table.h"

#include "server/render/css/parse.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <algorithm>
#include <utility>

namespace imprint::render::tailwind_detail {

namespace {

Decls readDecls(const QJsonValue &v)
{
    Decls out;
    for (const QJsonValue &d : v.toArray()) {
        const QJsonArray pair = d.toArray();
        out.append({pair.at(0).toString(), pair.at(1).toString()});
    }
    return out;
}

Utility readUtility(const QJsonValue &v)
{
    const QJsonArray a = v.toArray();
    return {a.at(0).toInt(-1), readDecls(a.at(1))};
}

QHash<QString, Utility> readUtilityMap(const QJsonObject &o)
{
    QHash<QString, Utility> out;
    for (auto it = o.begin(); it != o.end(); ++it)
        out.insert(it.key(), readUtility(it.value()));
    return out;
}

Table loadTable()
{
    Table t;
    QFile f(QStringLiteral(":/tailwind/table.json"));
    if (!f.open(QIODevice::ReadOnly))
        return t;
    const QJsonObject o = QJsonDocument::fromJson(f.readAll()).object();
    t.version = o.value(QLatin1String("version")).toString();
    const QJsonObject vars = o.value(QLatin1String("vars")).toObject();
    for (auto it = vars.begin(); it != vars.end(); ++it)
        t.vars.insert(it.key(), it.value().toString());
    const QJsonObject initial = o.value(QLatin1String("initial")).toObject();
    for (auto it = initial.begin(); it != initial.end(); ++it)
        t.initial.insert(it.key(), it.value().isString() ? std::optional(it.value().toString()) : std::nullopt);
    const QJsonObject classes = o.value(QLatin1String("classes")).toObject();
    for (auto it = classes.begin(); it != classes.end(); ++it)
        t.classes.insert(it.key(), readUtility(it.value()));
    const QJsonObject roots = o.value(QLatin1String("roots")).toObject();
    for (auto it = roots.begin(); it != roots.end(); ++it) {
        const QJsonObject r = it.value().toObject();
        t.roots.insert(it.key(), {readUtilityMap(r.value(QLatin1String("t")).toObject()),
                                  readUtility(r.value(QLatin1String("sp"))), readUtility(r.value(QLatin1String("b"))),
                                  readUtilityMap(r.value(QLatin1String("a")).toObject())});
    }
    return t;
}

} // namespace

const Table &table()
{
    static const Table t = loadTable(); // thread-safe once (C++11 statics)
    return t;
}

QString spacedMathOperators(const QString &v)
{
    if (!v.contains(u'('))
        return v;
    static const QRegularExpression mathFn(QStringLiteral(
        "\\b(calc|min|max|clamp|mod|rem|round|abs|sign|pow|sqrt|hypot|log|exp|sin|cos|tan|asin|acos|atan|atan2)\\("));
    static const QRegularExpression op(
        QStringLiteral("(?<=[0-9%)]|\\dpx|\\drem|\\dem|\\dvh|\\dvw)\\s*([-+*/])\\s*(?=[0-9.(]|var\\()"));
    QString out;
    qsizetype from = 0;
    for (auto it = mathFn.globalMatch(v); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        if (m.capturedStart() < from) // nested in the function spaced already
            continue;
        const qsizetype close = css::closingBracket(v, m.capturedEnd());
        const qsizetype end = close < 0 ? v.size() : close + 1;
        out += v.mid(from, m.capturedStart() - from);
        out += v.mid(m.capturedStart(), end - m.capturedStart()).replace(op, QStringLiteral(" \\1 "));
        from = end;
    }
    return out + v.mid(from);
}

QString arbitraryText(QString v)
{
    v.replace(QLatin1String("\\_"), QStringLiteral("\x01")).replace(u'_', u' ').replace(u'\x01', u'_');
    return spacedMathOperators(v);
}

std::optional<Utility> arbitraryProperty(const QString &name)
{
    static const QRegularExpression form(QStringLiteral("^\\[(--[A-Za-z0-9_-]+|-?[a-z][a-z0-9-]*):(.+)\\]$"));
    const auto m = form.match(name);
    if (!m.hasMatch())
        return std::nullopt;
    struct Rank {
        int alone = -1, withCustom = -1, among = -1;
    };
    static const std::pair<QHash<QString, Rank>, int> ranks = [] {
        QHash<QString, Rank> out;
        int last = 0;
        for (const Utility &u : std::as_const(table().classes)) {
            last = std::max(last, u.order);
            QStringList own;
            for (const Decl &d : u.decls)
                if (!d.property.startsWith(QLatin1String("--")))
                    own << d.property;
            for (const QString &p : std::as_const(own)) {
                Rank &r = out[p];
                r.among = std::max(r.among, u.order);
                if (own.size() == 1) {
                    int &rank = u.decls.size() == 1 ? r.alone : r.withCustom;
                    rank = std::max(rank, u.order);
                }
            }
        }
        return std::pair{out, last + 1};
    }();
    const QString property = m.captured(1);
    Utility u{ranks.second, {{property, arbitraryText(m.captured(2))}}, true};
    if (const auto it = ranks.first.constFind(property); it != ranks.first.constEnd()) {
        u.order = it->alone >= 0 ? it->alone : it->withCustom >= 0 ? it->withCustom : it->among;
        u.afterRank = it->alone < 0;
    }
    return u;
}

} // namespace imprint::render::tailwind_detail
