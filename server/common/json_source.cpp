#include "server/common/json_source.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace imprint::common {

namespace {

/// One step of a field path: a member name, or an array index when `index` >= 0.
struct Step {
    QString key;
    qsizetype index = -1;
};

/// `root.props.children[2].props` → root, props, children, [2], props. Empty when the
/// path is malformed (an empty member name, an index that is not a number).
QList<Step> pathSteps(const QString &path)
{
    static const QRegularExpression segment(QStringLiteral("^([^\\[\\]]*)((?:\\[\\d+\\])*)$"));
    static const QRegularExpression index(QStringLiteral("\\[(\\d+)\\]"));
    QList<Step> steps;
    if (path.isEmpty())
        return steps;
    for (const QString &part : path.split(QLatin1Char('.'))) {
        const QRegularExpressionMatch m = segment.match(part);
        if (!m.hasMatch())
            return {};
        if (!m.captured(1).isEmpty())
            steps.append({m.captured(1)});
        else if (steps.isEmpty() && m.captured(2).isEmpty())
            return {};
        for (auto it = index.globalMatch(m.captured(2)); it.hasNext();)
            steps.append({QString(), it.next().captured(1).toLongLong()});
    }
    return steps;
}

/// Walks JSON text QJsonDocument has accepted: positions only, no values.
class Walker
{
public:
    explicit Walker(const QByteArray &text)
        : m_s(text)
    {
    }

    qsizetype pos() const { return m_i; }
    char peek() const { return m_i < m_s.size() ? m_s.at(m_i) : '\0'; }
    void next() { ++m_i; }
    void seek(qsizetype at) { m_i = at; }

    void skipSpace()
    {
        while (m_i < m_s.size() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r'))
            ++m_i;
    }

    /// At a '"': moves past the closing quote and answers the decoded string.
    QString readString()
    {
        const qsizetype start = m_i;
        skipString();
        const QByteArray token = '[' + m_s.mid(start, m_i - start) + ']';
        return QJsonDocument::fromJson(token).array().at(0).toString();
    }

    /// Moves past one value (and the space before it).
    void skipValue()
    {
        skipSpace();
        if (peek() == '"') {
            skipString();
            return;
        }
        if (peek() == '{' || peek() == '[') {
            int depth = 0;
            while (m_i < m_s.size()) {
                const char c = peek();
                if (c == '"') {
                    skipString();
                    continue;
                }
                ++m_i;
                if (c == '{' || c == '[')
                    ++depth;
                else if ((c == '}' || c == ']') && --depth == 0)
                    return;
            }
            return;
        }
        while (m_i < m_s.size() && !QByteArrayView(",}] \t\r\n").contains(peek()))
            ++m_i;
    }

private:
    void skipString()
    {
        ++m_i; // the opening quote
        while (m_i < m_s.size() && peek() != '"')
            m_i += peek() == '\\' ? 2 : 1;
        ++m_i; // the closing quote
    }

    const QByteArray &m_s;
    qsizetype m_i = 0;
};

/// From an object's '{': the offsets of the last member named `key` (its key's quote and
/// its value); std::nullopt when there is none.
std::optional<std::pair<qsizetype, qsizetype>> findMember(Walker &w, const QString &key)
{
    if (w.peek() != '{')
        return std::nullopt;
    w.next();
    std::optional<std::pair<qsizetype, qsizetype>> found; // the parser keeps the last duplicate
    for (;;) {
        w.skipSpace();
        if (w.peek() != '"')
            return found;
        const qsizetype keyAt = w.pos();
        const QString name = w.readString();
        w.skipSpace();
        w.next(); // ':'
        w.skipSpace();
        if (name == key)
            found = std::make_pair(keyAt, w.pos());
        w.skipValue();
        w.skipSpace();
        if (w.peek() != ',')
            return found;
        w.next();
    }
}

/// From an array's '[': the offset of element `index`; std::nullopt past its end.
std::optional<qsizetype> findElement(Walker &w, qsizetype index)
{
    if (w.peek() != '[')
        return std::nullopt;
    w.next();
    for (qsizetype k = 0;; ++k) {
        w.skipSpace();
        if (w.peek() == ']' || w.peek() == '\0')
            return std::nullopt;
        if (k == index)
            return w.pos();
        w.skipValue();
        w.skipSpace();
        if (w.peek() != ',')
            return std::nullopt;
        w.next();
    }
}

} // namespace

SourcePosition sourcePosition(const QByteArray &utf8, qsizetype offset)
{
    offset = std::clamp<qsizetype>(offset, 0, utf8.size());
    const qsizetype lineStart = offset == 0 ? 0 : utf8.lastIndexOf('\n', offset - 1) + 1;
    SourcePosition p;
    p.line = int(utf8.left(offset).count('\n')) + 1;
    p.column = int(QString::fromUtf8(utf8.mid(lineStart, offset - lineStart)).size()) + 1;
    return p;
}

std::optional<qsizetype> locateJsonPath(const QByteArray &utf8, const QString &path)
{
    QJsonParseError error;
    QJsonDocument::fromJson(utf8, &error);
    if (error.error != QJsonParseError::NoError)
        return std::nullopt;
    const QList<Step> steps = pathSteps(path);
    if (steps.isEmpty() && !path.isEmpty())
        return std::nullopt;
    Walker w(utf8);
    w.skipSpace();
    qsizetype at = w.pos();
    for (const Step &step : steps) {
        if (step.index >= 0) {
            const auto element = findElement(w, step.index);
            if (!element)
                return std::nullopt;
            at = *element;
            continue; // the walker stands at the element
        }
        const auto member = findMember(w, step.key);
        if (!member)
            return std::nullopt;
        at = member->first;
        w.seek(member->second); // the walker has moved past the member: back to its value
    }
    return at;
}

} // namespace imprint::common
