#pragma once
// Pieces that several console pages build alike: a column of rows (the Keys tab's table
// page, the list tabs' pages, the preview's controls), named widgets and the thin busy bar
// under a form.

#include <QMargins>
#include <QString>

#include <initializer_list>

class QLayout;
class QProgressBar;
class QWidget;

namespace imprint {
namespace gui {

/// One row of a columnPage(): a widget (with its stretch factor) or a layout.
struct ColumnRow {
    ColumnRow(QWidget *w, int s = 0) : widget(w), stretch(s) { }
    ColumnRow(QLayout *l) : layout(l) { }
    QWidget *widget = nullptr;
    QLayout *layout = nullptr;
    int stretch = 0;
};

/// A new widget owned by `parent` whose vertical layout, with `margins` (pixels), holds
/// `rows` top to bottom; the widgets and layouts of the rows move into it.
QWidget *columnPage(QWidget *parent, const QMargins &margins, std::initializer_list<ColumnRow> rows);

/// A new `W` owned by `parent`, named `objectName` (the name the console's tests and
/// style find it by).
template<typename W>
W *namedWidget(QWidget *parent, const QString &objectName)
{
    auto *widget = new W(parent);
    widget->setObjectName(objectName);
    return widget;
}

/// A hidden busy indicator owned by `parent` (an endless bar without text, named
/// `objectName`, at most `height` pixels high), shown while a request is in flight.
QProgressBar *makeBusyBar(QWidget *parent, const QString &objectName, int height);

} // namespace gui
} // namespace imprint
