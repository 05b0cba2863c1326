#pragma once
// Author style sheets (a template's `stylesheets`, docs/templates.md "Stylesheets"): rules
// parsed once per render, matched against each element as the document is built, their
// declarations cascaded under the element's inline `style` (CSS Cascade 4 §6).

#include <QHash>
#include <QJsonObject>
#include <QSizeF>
#include <QString>
#include <QStringList>

#include <memory>
#include <span>
#include <vector>

namespace imprint::render {

/// What a selector can see of one element: its tag (lower case), `id` attribute, classes
/// (`className` / `class`) and other string attributes, and where it sits among its
/// element siblings. Built by the document walk (template.cpp) for every element.
struct SelectorSubject {
    QString tag;
    QString id;
    QStringList classes;
    QHash<QString, QString> attributes; ///< by lower-case name, values as written
};

/// The chain a selector is matched along: the element, its parent's context (nullptr at
/// the root) and its element siblings in document order (`index` is the element's own).
struct MatchContext {
    const SelectorSubject *subject = nullptr;
    const MatchContext *parent = nullptr;
    std::span<const SelectorSubject> siblings;
    qsizetype index = 0;
};

struct StyleRule; // stylesheet.cpp

/// The rules of a template's style sheets, in source order.
class StyleSheet
{
public:
    /// Parses `sheets` (CSS texts, CSS Syntax 3): style rules with selector lists, `@media`
    /// blocks evaluated against `viewport` (px; `print` never applies, `screen`/`all` and
    /// `min-`/`max-width`/`-height` do), `!important`. Rules that cannot apply to a still
    /// image (`:hover`, `:focus`, `::before`, ...) are dropped silently; anything else it
    /// cannot use (an unsupported selector, an unknown at-rule) is dropped with a warning
    /// naming `field` ("stylesheets[0]") appended to `warnings`.
    static StyleSheet parse(const QStringList &sheets, QSizeF viewport, QStringList *warnings,
                            const QString &field = QStringLiteral("stylesheets"));

    StyleSheet();
    ~StyleSheet();
    StyleSheet(StyleSheet &&) noexcept;
    StyleSheet &operator=(StyleSheet &&) noexcept;

    bool isEmpty() const;
    /// Rules kept, one per selector of a selector list.
    qsizetype ruleCount() const;

    /// `inlineStyle` with the declarations of every rule matching `context` cascaded under
    /// it: rules by specificity then source order (CSS Cascade 4 §6.4), inline style over
    /// normal declarations, `!important` ones over inline. A declared shorthand removes
    /// the longhands of lower precedence it covers (`margin` over an earlier `marginTop`).
    /// Property names come back camelCase as the inline style writes them.
    QJsonObject cascade(const MatchContext &context, const QJsonObject &inlineStyle) const;

private:
    std::vector<StyleRule> m_rules;
};

/// Whether declaring `property` (camelCase) sets `longhand`: the same property, or a
/// shorthand whose longhands include it, transitively (`border` sets `borderTopWidth`), by
/// the table cascade() resets longhands with (CSS Cascade 4 §1.2).
bool setsLonghand(const QString &property, const QString &longhand);

/// `class` attribute text → its classes (split on ASCII whitespace, HTML §2.3.7).
QStringList splitClasses(const QString &classAttribute);

} // namespace imprint::render
