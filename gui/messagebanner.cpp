#include "gui/messagebanner.h"

namespace imprint {
namespace gui {

MessageBanner::MessageBanner(QWidget *parent)
    : QLabel(parent)
{
    setWordWrap(true);
    setTextFormat(Qt::PlainText);
    setTextInteractionFlags(Qt::TextSelectableByMouse);
    setMargin(8);
    hide();
}

void MessageBanner::showMessage(const QString &text, Kind kind)
{
    m_kind = kind;
    static const char *const styles[] = {
        "background:#e0ecff; color:#1e3a8a; border:1px solid #93b4f5; border-radius:4px;",
        "background:#dcfce7; color:#14532d; border:1px solid #86efac; border-radius:4px;",
        "background:#fef3c7; color:#78350f; border:1px solid #fcd34d; border-radius:4px;",
        "background:#fee2e2; color:#7f1d1d; border:1px solid #fca5a5; border-radius:4px;",
    };
    setStyleSheet(QString::fromLatin1(styles[int(kind)]));
    setText(text);
    setVisible(!text.isEmpty());
}

void MessageBanner::clearMessage()
{
    setText(QString());
    hide();
}

} // namespace gui
} // namespace imprint
