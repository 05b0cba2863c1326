#pragma once
// Console languages: the embedded imprint_<lang>.qm (qt_add_translations) plus Qt's
// own qtbase_<lang>.qm so standard dialogs and buttons are translated too.

#include <QString>
#include <QStringList>

namespace imprint {
namespace gui {

/// Languages the console ships translations for (besides English).
QStringList availableLanguages();

/// Installs the translators for `lang` ("de", "fr", "en"; empty: the system locale),
/// replacing any installed before, and sets the default QLocale to match. Returns the
/// language now in use ("en" when there is no translation for the request).
QString installTranslations(const QString &lang = QString());

} // namespace gui
} // namespace imprint
