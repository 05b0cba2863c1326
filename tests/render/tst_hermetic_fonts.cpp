// Hermetic fonts (server/render/text/hermetic_fonts.h, docs/deployment.md#fonts): this
// process and the `imprint` binary render with resources/fontconfig/fonts.conf only, so
// fonts and fontconfig rules a user or another package adds change no render. The
// conflict cases render the font-stack conformance case with the real binary, as a child
// process with a home of its own: once clean, once with a conflicting font (Comfortaa,
// made the answer for Arial, Helvetica and sans-serif) in ~/.fonts and
// ~/.local/share/fonts with a user fontconfig file, or in an inherited FONTCONFIG_FILE.
// The render must not change; and with IMPRINT_SYSTEM_FONTS=1 (the host's configuration,
// as before) the same conflict must change it, or the case proves nothing.

#include "server/render/text/font_fallback.h"
#include "server/render/text/generic_family.h"
#include "server/render/text/hermetic_fonts.h"
#include "tests/support/fixtures.h"
#include "tests/support/ssim.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QImage>
#include <QJsonDocument>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <fontconfig/fontconfig.h>
#include <unistd.h>

using namespace imprint::render;
using namespace imprint::render::test;

namespace {

const QString kCase = QStringLiteral("conformance/text-font-stacks");
const QString kConflictFont = QStringLiteral(IMPRINT_SOURCE_DIR "/tests/http/fonts/Comfortaa-Regular.ttf");

/// fontconfig rules that make Comfortaa the answer for Arial, Helvetica and sans-serif,
/// as fonts-urw-base35's drop-ins make Nimbus Sans the answer for Arial.
QByteArray conflictRules()
{
    QByteArray rules;
    for (const char *family : {"Arial", "Helvetica", "sans-serif"})
        rules += QByteArray("<alias binding=\"strong\"><family>") + family
                 + "</family><prefer><family>Comfortaa</family></prefer></alias>\n";
    return rules;
}

bool writeFile(const QString &path, const QByteArray &bytes)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

/// The font files resources/fontconfig/fonts.conf accepts.
QSet<QString> acceptedFiles()
{
    QSet<QString> files;
    static const QRegularExpression glob(QStringLiteral("<glob>(/usr/[^<*]+)</glob>"));
    for (const auto &m : glob.globalMatch(QString::fromUtf8(hermeticFontConfig())))
        files.insert(m.captured(1));
    return files;
}

} // namespace

class TestHermeticFonts : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;
    QHash<QString, QImage> m_clean; ///< per engine: the render in a clean home

    /// An environment for the binary with `home` as its home and no inherited font
    /// settings, without a display.
    QProcessEnvironment environment(const QString &home) const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        for (const char *name : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "FONTCONFIG_FILE",
                                 "FONTCONFIG_PATH", "IMPRINT_SYSTEM_FONTS", "DISPLAY", "WAYLAND_DISPLAY"})
            env.remove(QString::fromLatin1(name));
        env.insert(QStringLiteral("HOME"), home);
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        return env;
    }

    /// The font-stack case rendered by `imprint render` with `engine` ("takumi", or "html"
    /// on Chromium) in `env`; a null image (and a test failure message) on error.
    QImage render(const QString &engine, const QProcessEnvironment &env, const QString &tag)
    {
        const QString in = m_dir.filePath(QStringLiteral("case.json"));
        if (!QFileInfo::exists(in)) {
            QJsonObject doc{{QStringLiteral("root"), fixtureTemplate(kCase)},
                            {QStringLiteral("width"), 1200},
                            {QStringLiteral("height"), 900}};
            if (!writeFile(in, QJsonDocument(doc).toJson()))
                return {};
        }
        const QString out = m_dir.filePath(QStringLiteral("%1-%2.png").arg(engine, tag));
        QStringList args{QStringLiteral("render"), in, QStringLiteral("-o"), out, QStringLiteral("--engine"), engine};
        if (engine == QLatin1String("html"))
            args << QStringLiteral("--browser") << QStringLiteral("chromium");
        QProcess p;
        p.setProcessEnvironment(env);
        p.start(QStringLiteral(IMPRINT_BINARY), args);
        if (!p.waitForFinished(120000) || p.exitStatus() != QProcess::NormalExit || p.exitCode() != 0) {
            qWarning("imprint render (%s): %s", qPrintable(tag), p.readAllStandardError().constData());
            return {};
        }
        return QImage(out);
    }

    /// A home with the conflicting font in ~/.fonts and ~/.local/share/fonts, the two
    /// user font directories /etc/fonts/fonts.conf names, and conflictRules() in
    /// ~/.config/fontconfig/fonts.conf, which its 50-user.conf reads.
    QString conflictedHome()
    {
        const QString home = m_dir.filePath(QStringLiteral("conflicted-home"));
        QFile font(kConflictFont);
        const QByteArray bytes = font.open(QIODevice::ReadOnly) ? font.readAll() : QByteArray();
        writeFile(home + QStringLiteral("/.fonts/Comfortaa-Regular.ttf"), bytes);
        writeFile(home + QStringLiteral("/.local/share/fonts/Comfortaa-Regular.ttf"), bytes);
        writeFile(home + QStringLiteral("/.config/fontconfig/fonts.conf"),
                  "<?xml version=\"1.0\"?>\n<fontconfig>\n" + conflictRules() + "</fontconfig>\n");
        return home;
    }

    /// A configuration a parent process might pass on in FONTCONFIG_FILE: the host's,
    /// with the conflicting font's directory and rules before it.
    QString conflictedConfigFile()
    {
        const QString dir = m_dir.filePath(QStringLiteral("inherited"));
        QDir().mkpath(dir + QStringLiteral("/fonts"));
        QFile::copy(kConflictFont, dir + QStringLiteral("/fonts/Comfortaa-Regular.ttf"));
        const QString path = dir + QStringLiteral("/fonts.conf");
        writeFile(path, "<?xml version=\"1.0\"?>\n<fontconfig>\n<dir>" + QFile::encodeName(dir)
                            + "/fonts</dir>\n" + conflictRules()
                            + "<include>/etc/fonts/fonts.conf</include>\n</fontconfig>\n");
        return path;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        // As root the html engine's Chromium runs as imprint-browser: it must be able to read
        // the inherited configuration and the conflicting font in here.
        QVERIFY(QFile::setPermissions(m_dir.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                        | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                                                        | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                        | QFileDevice::ExeOther));
        QVERIFY2(QFileInfo::exists(kConflictFont), qPrintable(kConflictFont));
    }

    /// This process reads the compiled-in configuration, and that is the committed one.
    void usesImprintsConfiguration()
    {
        const QString path = useHermeticFonts();
        QVERIFY2(!path.isEmpty(), "no hermetic configuration (IMPRINT_SYSTEM_FONTS=1?)");
        QCOMPARE(qEnvironmentVariable("FONTCONFIG_FILE"), path);
        QFile written(path);
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), hermeticFontConfig());
        QFile committed(QStringLiteral(IMPRINT_SOURCE_DIR "/resources/fontconfig/fonts.conf"));
        QVERIFY(committed.open(QIODevice::ReadOnly));
        QVERIFY2(committed.readAll() == hermeticFontConfig(), "the build compiled in another fonts.conf: re-run cmake");
    }

    /// fontconfig sees exactly the packaged files: all present on this machine (else a
    /// host without one renders differently: scripts/deps installs them), and no other.
    void onlyPackagedFontFiles()
    {
        QVERIFY(FcInit());
        const QSet<QString> accepted = acceptedFiles();
        QVERIFY(accepted.size() > 300);
        for (const QString &file : accepted)
            QVERIFY2(QFileInfo::exists(file), qPrintable(file + QStringLiteral(" is missing: scripts/deps")));
        QSet<QString> seen;
        FcFontSet *fonts = FcConfigGetFonts(nullptr, FcSetSystem);
        QVERIFY(fonts);
        for (int i = 0; i < fonts->nfont; ++i) {
            FcChar8 *file = nullptr;
            QVERIFY(FcPatternGetString(fonts->fonts[i], FC_FILE, 0, &file) == FcResultMatch);
            const QString name = QFile::decodeName(reinterpret_cast<const char *>(file));
            QVERIFY2(accepted.contains(name), qPrintable(name + QStringLiteral(" is not a packaged font")));
            seen.insert(name);
        }
        QCOMPARE(seen.size(), accepted.size());
    }

    /// The answers the text engine relies on, as Chromium gives them on Debian 12.
    void genericFamiliesAndFallbacks()
    {
        QCOMPARE(genericFamily(GenericFamily::SansSerif), QStringLiteral("Noto Sans"));
        QCOMPARE(genericFamily(GenericFamily::Serif), QStringLiteral("Noto Serif"));
        QCOMPARE(genericFamily(GenericFamily::Monospace), QStringLiteral("DejaVu Sans Mono"));
        const FallbackFace *kana = systemFallbackFace(U'あ');
        QVERIFY(kana);
        QCOMPARE(kana->family, QStringLiteral("Noto Sans CJK JP"));
        const FallbackFace *arabic = systemFallbackFace(U'ب');
        QVERIFY(arabic);
        QCOMPARE(arabic->family, QStringLiteral("DejaVu Sans"));
    }

    // Without a writable cache every process of a user shares one directory in $TMPDIR, so a
    // process ended by SIGKILL leaves nothing new (one per process was left by each killed
    // server). A name someone else holds is not used: then a private directory, removed at exit.
    void configurationOutsideTheCacheIsOnePerUser()
    {
        QProcessEnvironment env = environment(m_dir.filePath(QStringLiteral("clean-home")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), QStringLiteral("/proc/imprint-no-cache"));
        const QString shared = QStringLiteral("imprint-fonts-%1").arg(::geteuid());
        const QString tmp = m_dir.filePath(QStringLiteral("tmp-shared")), taken = m_dir.filePath(QStringLiteral("tmp-taken"));
        QVERIFY(QDir().mkpath(tmp) && QDir().mkpath(taken));
        env.insert(QStringLiteral("TMPDIR"), tmp);
        QVERIFY(!render(QStringLiteral("takumi"), env, QStringLiteral("shared-1")).isNull());
        QVERIFY(!render(QStringLiteral("takumi"), env, QStringLiteral("shared-2")).isNull());
        const QStringList filter{QStringLiteral("imprint-fonts-*")};
        QCOMPARE(QDir(tmp).entryList(filter, QDir::AllEntries), QStringList{shared});
        QCOMPARE(QFileInfo(tmp + u'/' + shared).permissions() & 0x0777, QFileDevice::Permissions(0x0711));
        QCOMPARE(QDir(tmp + u'/' + shared).entryList(QDir::Files).size(), 1);

        QVERIFY(writeFile(taken + u'/' + shared, "not a directory"));
        env.insert(QStringLiteral("TMPDIR"), taken);
        QVERIFY(!render(QStringLiteral("takumi"), env, QStringLiteral("taken")).isNull());
        QCOMPARE(QDir(taken).entryList(filter, QDir::AllEntries), QStringList{shared});
    }

    void conflictingFontsChangeNoRender_data()
    {
        QTest::addColumn<QString>("engine");
        QTest::addColumn<QString>("conflict");
        QTest::newRow("takumi, user fonts") << "takumi" << "home";
        QTest::newRow("takumi, inherited FONTCONFIG_FILE") << "takumi" << "file";
        // A cache it cannot write (the systemd unit's read-only home): the configuration
        // goes to $TMPDIR/imprint-fonts-UID (configurationOutsideTheCacheIsOnePerUser).
        QTest::newRow("takumi, user fonts, read-only cache") << "takumi" << "home, read-only cache";
        QTest::newRow("html on Chromium, user fonts") << "html" << "home";
        QTest::newRow("html on Chromium, inherited FONTCONFIG_FILE") << "html" << "file";
    }

    void conflictingFontsChangeNoRender()
    {
        QFETCH(QString, engine);
        QFETCH(QString, conflict);
        // Chromium is required, as in every html engine suite: without it this fails.
        QVERIFY2(engine != QLatin1String("html") || !QStandardPaths::findExecutable(QStringLiteral("chromium")).isEmpty(),
                 "chromium is not installed (scripts/deps)");
        const QImage reference(referencePng(kCase));
        QVERIFY(!reference.isNull());

        if (!m_clean.contains(engine)) {
            const QString home = m_dir.filePath(QStringLiteral("clean-home"));
            QDir().mkpath(home);
            const QImage clean = render(engine, environment(home), QStringLiteral("clean"));
            QVERIFY(!clean.isNull());
            // The CLI's render is the golden one: as close to Chromium as tst_golden asks.
            const double ssim = ssimOf(clean, reference);
            qInfo("%s clean vs Chromium reference: SSIM %.5f", qPrintable(engine), ssim);
            QVERIFY2(ssim >= 0.99, qPrintable(QString::number(ssim)));
            m_clean.insert(engine, clean);
        }
        const QImage clean = m_clean.value(engine);

        QProcessEnvironment env;
        const QString tmp = m_dir.filePath(QStringLiteral("tmp"));
        if (conflict.startsWith(QLatin1String("home"))) {
            env = environment(conflictedHome());
            if (conflict.endsWith(QLatin1String("read-only cache"))) {
                env.insert(QStringLiteral("XDG_CACHE_HOME"), QStringLiteral("/proc/imprint-no-cache"));
                QDir().mkpath(tmp);
                env.insert(QStringLiteral("TMPDIR"), tmp);
            }
        } else {
            env = environment(m_dir.filePath(QStringLiteral("clean-home")));
            env.insert(QStringLiteral("FONTCONFIG_FILE"), conflictedConfigFile());
        }
        const QString tag = QString(conflict).remove(u',').replace(u' ', u'-');
        const QImage hermetic = render(engine, env, tag + QStringLiteral("-hermetic"));
        QVERIFY(!hermetic.isNull());
        const double same = ssimOf(hermetic, clean);
        qInfo("%s with the conflict: SSIM %.5f against the clean render, %s", qPrintable(engine), same,
              hermetic == clean ? "identical pixels" : "pixels differ");
        QVERIFY2(same >= 0.999,
                 qPrintable(QStringLiteral("the conflicting font changed the render: SSIM %1").arg(same)));

        // The control: the host's configuration with the same conflict. Must differ well
        // beyond the golden floor, or the conflict above tested nothing. Except where it
        // cannot reach: as root Chromium runs as imprint-browser with a home of its own.
        if (engine == QLatin1String("html") && conflict.startsWith(QLatin1String("home")) && ::geteuid() == 0) {
            qInfo("as root Chromium does not see this home: no control");
            return;
        }
        env.insert(QStringLiteral("IMPRINT_SYSTEM_FONTS"), QStringLiteral("1"));
        const QImage host = render(engine, env, tag + QStringLiteral("-host"));
        QVERIFY(!host.isNull());
        const double changed = ssimOf(host, clean);
        qInfo("%s with the conflict and the host's configuration: SSIM %.5f", qPrintable(engine), changed);
        QVERIFY2(changed < 0.97, qPrintable(QStringLiteral("the conflict had no effect: SSIM %1").arg(changed)));
    }
};

QTEST_MAIN(TestHermeticFonts)
#include "tst_hermetic_fonts.moc"
