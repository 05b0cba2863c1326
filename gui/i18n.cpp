#include "gui/i18n.h"

#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QTranslator>

#include <memory>

namespace imprint {
namespace gui {

namespace {
std::unique_ptr<QTranslator> g_app;
std::unique_ptr<QTranslator> g_qt;
} // namespace

QStringList availableLanguages()
{
    return {QStringLiteral("de"), QStringLiteral("fr")};
}

QString installTranslations(const QString &requested)
{
    if (g_app)
        QCoreApplication::removeTranslator(g_app.get());
    if (g_qt)
        QCoreApplication::removeTranslator(g_qt.get());
    g_app.reset();
    g_qt.reset();

    QString lang = requested.trimmed().toLower();
    if (lang.isEmpty()) {
        const QStringList ui = QLocale::system().uiLanguages();
        lang = QStringLiteral("en");
        for (const QString &l : ui) {
            const QString code = l.left(2).toLower();
            if (code == QLatin1String("en") || availableLanguages().contains(code)) {
                lang = code;
                break;
            }
        }
    }
    lang = lang.left(2);
    if (lang != QLatin1String("en") && !availableLanguages().contains(lang))
        lang = QStringLiteral("en");

    // English has a translation file too: it holds the plural forms ("%n key(s)").
    auto app = std::make_unique<QTranslator>();
    if (app->load(QStringLiteral(":/i18n/imprint_%1.qm").arg(lang))) {
        QCoreApplication::installTranslator(app.get());
        g_app = std::move(app);
    } else if (lang != QLatin1String("en")) {
        lang = QStringLiteral("en");
    }
    if (lang == QLatin1String("en")) {
        QLocale::setDefault(QLocale::system().language() == QLocale::English
                                ? QLocale::system()
                                : QLocale(QLocale::English, QLocale::UnitedStates));
        return lang;
    }

    auto qt = std::make_unique<QTranslator>();
    if (qt->load(QStringLiteral("qtbase_%1").arg(lang), QLibraryInfo::path(QLibraryInfo::TranslationsPath))) {
        QCoreApplication::installTranslator(qt.get());
        g_qt = std::move(qt);
    }
    // Dates and numbers follow the console's language unless the system already
    // uses a locale of that language (keeping de_CH, fr_CA...).
    if (QLocale::system().name().left(2) == lang)
        QLocale::setDefault(QLocale::system());
    else
        QLocale::setDefault(QLocale(lang));
    return lang;
}

} // namespace gui
} // namespace imprint
