#pragma once
// The Studio tab's code editor (docs/console.md, "Studio"): a QPlainTextEdit with line
// numbers in a gutter, the bracket under the cursor and its partner highlighted, one
// problem underlined with a wavy line at the server's line and column, and syntax colours
// for a template's JSON or for markup (TemplateHighlighter). Undo is QPlainTextEdit's own.

#include <QPlainTextEdit>
#include <QSyntaxHighlighter>
#include <QRegularExpression>

namespace imprint {
namespace gui {

/// Colours a template document: in Json mode member names, strings, numbers and
/// true/false/null (JSON, RFC 8259); in Markup mode tags, attribute names and quoted
/// attribute values (HTML). Line by line: a JSON string never spans lines, and a markup
/// tag that does is coloured up to the line's end.
class TemplateHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Mode { Json, Markup };
    explicit TemplateHighlighter(QTextDocument *document, Mode mode = Mode::Json);
    void setMode(Mode mode);
    Mode mode() const { return m_mode; }

protected:
    void highlightBlock(const QString &text) override;

private:
    struct Rule {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    Mode m_mode;
    QList<Rule> m_json;
    QList<Rule> m_markup;
};

/// The editor. setProblem() underlines one place; the underline goes with the next edit's
/// answer (clearProblem()). The gutter is a child widget painted by the editor.
class CodeEditor : public QPlainTextEdit
{
    Q_OBJECT
public:
    explicit CodeEditor(QWidget *parent = nullptr);

    TemplateHighlighter *highlighter() const { return m_highlighter; }
    /// Underlines from 1-based `line` and `column` to the end of the word (a member name
    /// in quotes, or the one character of a syntax error) with a red wavy line; `message`
    /// becomes that place's tooltip. Out-of-range places are clamped to the text.
    void setProblem(int line, int column, const QString &message);
    void clearProblem();
    /// The underlined place as (line, column), (0, 0) when none.
    QPair<int, int> problemPlace() const { return m_problemPlace; }
    /// The positions (document offsets) of the highlighted bracket pair, -1 when none.
    QPair<int, int> bracketPair() const { return m_brackets; }

    /// The gutter's width in px for the current line count.
    int gutterWidth() const;
    void paintGutter(QPaintEvent *event);

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool event(QEvent *event) override;

private:
    void updateGutter(const QRect &rect, int dy);
    void updateSelections();
    /// The offset of the bracket matching the one at `pos`, -1 when unmatched. Brackets
    /// inside JSON strings are skipped on the way (a quote toggles "in a string").
    int matchingBracket(int pos) const;

    QWidget *m_gutter;
    TemplateHighlighter *m_highlighter;
    QTextEdit::ExtraSelection m_problem;
    bool m_hasProblem = false;
    QString m_problemMessage;
    QPair<int, int> m_problemPlace{0, 0};
    QPair<int, int> m_brackets{-1, -1};
};

} // namespace gui
} // namespace imprint
