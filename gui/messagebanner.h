#pragma once
// A one-line (wrapping) banner for errors, warnings and confirmations inside a page:
// messages are shown in place, as sentences, instead of popping up dialogs.

#include <QLabel>

namespace imprint {
namespace gui {

class MessageBanner : public QLabel
{
    Q_OBJECT
public:
    enum class Kind { Info, Success, Warning, Error };
    explicit MessageBanner(QWidget *parent = nullptr);

    void showMessage(const QString &text, Kind kind = Kind::Info);
    void clearMessage();
    Kind kind() const { return m_kind; }

private:
    Kind m_kind = Kind::Info;
};

} // namespace gui
} // namespace imprint
