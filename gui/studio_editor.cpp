#include "gui/studio_editor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

namespace imprint {
namespace gui {

namespace {

QTextCharFormat colour(const char *hex, bool bold = false)
{
    QTextCharFormat f;
    f.setForeground(QColor(QLatin1String(hex)));
    if (bold)
        f.setFontWeight(QFont::DemiBold);
    return f;
}

/// The gutter: a plain widget whose painting and size the editor owns.
class Gutter : public QWidget
{
public:
    explicit Gutter(CodeEditor *editor)
        : QWidget(editor)
        , m_editor(editor)
    {
        setObjectName(QStringLiteral("studioGutter"));
    }
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

private:
    CodeEditor *m_editor;
};

} // namespace

TemplateHighlighter::TemplateHighlighter(QTextDocument *document, Mode mode)
    : QSyntaxHighlighter(document)
    , m_mode(mode)
{
    // Later rules win: a member name is a string followed by a colon.
    m_json = {
        {QRegularExpression(QStringLiteral("-?\\b\\d+(\\.\\d+)?([eE][+-]?\\d+)?\\b")), colour("#b45309")},
        {QRegularExpression(QStringLiteral("\\b(true|false|null)\\b")), colour("#7c3aed")},
        {QRegularExpression(QStringLiteral("\"(?:[^\"\\\\]|\\\\.)*\"")), colour("#047857")},
        {QRegularExpression(QStringLiteral("(\"(?:[^\"\\\\]|\\\\.)*\")\\s*:")), colour("#1d4ed8", true), 1},
    };
    m_markup = {
        {QRegularExpression(QStringLiteral("</?[A-Za-z][\\w:-]*|/?>")), colour("#1d4ed8", true)},
        {QRegularExpression(QStringLiteral("\\s([A-Za-z_:][\\w:.-]*)\\s*=")), colour("#b45309"), 1},
        {QRegularExpression(QStringLiteral("\"[^\"]*\"|'[^']*'")), colour("#047857")},
        {QRegularExpression(QStringLiteral("\\{\\{\\s*[\\w.-]+\\s*\\}\\}")), colour("#7c3aed", true)},
    };
}

void TemplateHighlighter::setMode(Mode mode)
{
    if (mode == m_mode)
        return;
    m_mode = mode;
    rehighlight();
}

void TemplateHighlighter::highlightBlock(const QString &text)
{
    for (const Rule &rule : m_mode == Mode::Json ? m_json : m_markup) {
        for (auto it = rule.pattern.globalMatch(text); it.hasNext();) {
            const QRegularExpressionMatch m = it.next();
            setFormat(int(m.capturedStart(rule.group)), int(m.capturedLength(rule.group)), rule.format);
        }
    }
}

CodeEditor::CodeEditor(QWidget *parent)
    : QPlainTextEdit(parent)
    , m_gutter(new Gutter(this))
    , m_highlighter(new TemplateHighlighter(document()))
{
    setObjectName(QStringLiteral("studioEditor"));
    setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabStopDistance(fontMetrics().horizontalAdvance(QLatin1Char(' ')) * 2);
    connect(this, &QPlainTextEdit::blockCountChanged, this, [this] { setViewportMargins(gutterWidth(), 0, 0, 0); });
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &CodeEditor::updateSelections);
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

int CodeEditor::gutterWidth() const
{
    const int digits = int(QString::number(std::max(1, blockCount())).size());
    return 10 + fontMetrics().horizontalAdvance(QLatin1Char('9')) * std::max(3, digits);
}

void CodeEditor::updateGutter(const QRect &rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
}

void CodeEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

void CodeEditor::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    p.fillRect(event->rect(), palette().color(QPalette::AlternateBase));
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    const int problemLine = m_hasProblem ? m_problemPlace.first : 0;
    while (block.isValid() && top <= event->rect().bottom()) {
        const int height = qRound(blockBoundingRect(block).height());
        if (block.isVisible() && top + height >= event->rect().top()) {
            const bool bad = block.blockNumber() + 1 == problemLine;
            p.setPen(bad ? QColor(QLatin1String("#b91c1c")) : palette().color(QPalette::PlaceholderText));
            p.drawText(0, top, m_gutter->width() - 5, fontMetrics().height(), Qt::AlignRight,
                       QString::number(block.blockNumber() + 1));
        }
        top += height;
        block = block.next();
    }
}

int CodeEditor::matchingBracket(int pos) const
{
    const QString text = toPlainText();
    const bool json = m_highlighter->mode() == TemplateHighlighter::Mode::Json;
    // One pass pairs every bracket outside strings; the text is a template, a few KB.
    QList<int> stack;
    bool inString = false;
    for (int i = 0; i < text.size(); ++i) {
        const QChar c = text.at(i);
        if (json && inString) {
            if (c == u'\\')
                ++i;
            else if (c == u'"')
                inString = false;
            continue;
        }
        if (json && c == u'"') {
            inString = true;
        } else if (c == u'{' || c == u'[' || c == u'(') {
            stack.append(i);
        } else if (c == u'}' || c == u']' || c == u')') {
            if (stack.isEmpty())
                continue;
            const int open = stack.takeLast();
            if (open == pos)
                return i;
            if (i == pos)
                return open;
        }
    }
    return -1;
}

void CodeEditor::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    if (m_hasProblem)
        selections.append(m_problem);
    m_brackets = {-1, -1};
    const QString text = toPlainText();
    const int cursor = textCursor().position();
    // The bracket after the cursor, else the one before it (as most editors do).
    for (const int at : {cursor, cursor - 1}) {
        if (at < 0 || at >= text.size() || !QStringLiteral("{}[]()").contains(text.at(at)))
            continue;
        const int other = matchingBracket(at);
        if (other < 0)
            break;
        m_brackets = {std::min(at, other), std::max(at, other)};
        for (const int p : {at, other}) {
            QTextEdit::ExtraSelection s;
            s.cursor = QTextCursor(document());
            s.cursor.setPosition(p);
            s.cursor.setPosition(p + 1, QTextCursor::KeepAnchor);
            s.format.setBackground(QColor(QLatin1String("#fde68a")));
            selections.append(s);
        }
        break;
    }
    setExtraSelections(selections);
}

void CodeEditor::setProblem(int line, int column, const QString &message)
{
    QTextBlock block = document()->findBlockByNumber(std::clamp(line, 1, blockCount()) - 1);
    const QString text = block.text();
    int start = std::clamp(column - 1, 0, int(text.size()));
    int end = start + 1;
    if (start < text.size() && text.at(start) == u'"') { // a member name: underline it whole
        end = int(text.indexOf(u'"', start + 1)) + 1;
        if (end <= start)
            end = int(text.size());
    } else if (start < text.size() && text.at(start).isLetterOrNumber()) {
        while (end < text.size() && text.at(end).isLetterOrNumber())
            ++end;
    }
    if (start >= text.size() && start > 0) // a syntax error at the line's end
        start = int(text.size()) - 1;
    end = std::clamp(end, start + 1, std::max(start + 1, int(text.size())));
    m_problem = {};
    m_problem.cursor = QTextCursor(block);
    m_problem.cursor.setPosition(block.position() + start);
    m_problem.cursor.setPosition(std::min(block.position() + end, document()->characterCount() - 1),
                                 QTextCursor::KeepAnchor);
    m_problem.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
    m_problem.format.setUnderlineColor(QColor(QLatin1String("#dc2626")));
    m_problem.format.setToolTip(message);
    m_problemMessage = message;
    m_problemPlace = {block.blockNumber() + 1, start + 1};
    m_hasProblem = true;
    updateSelections();
    m_gutter->update();
}

void CodeEditor::clearProblem()
{
    if (!m_hasProblem)
        return;
    m_hasProblem = false;
    m_problemPlace = {0, 0};
    m_problemMessage.clear();
    updateSelections();
    m_gutter->update();
}

bool CodeEditor::event(QEvent *event)
{
    // The underlined place explains itself on hover (a format's tooltip alone does not show).
    if (event->type() == QEvent::ToolTip && m_hasProblem) {
        auto *help = static_cast<QHelpEvent *>(event);
        const QTextCursor at = cursorForPosition(viewport()->mapFromGlobal(help->globalPos()));
        if (at.position() >= m_problem.cursor.selectionStart() && at.position() <= m_problem.cursor.selectionEnd()) {
            QToolTip::showText(help->globalPos(), m_problemMessage, this);
            return true;
        }
    }
    return QPlainTextEdit::event(event);
}

} // namespace gui
} // namespace imprint
