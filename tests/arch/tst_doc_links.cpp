// The repository stands alone: every relative link of README.md, docs/ and the clients'
// READMEs names a file inside the repository that exists, and every `#fragment` a heading
// of its target (GitHub's anchor: lower case, punctuation but `-` and `_` dropped, spaces
// as `-`, a repeated heading suffixed `-1`, `-2` …) or an `<a id="…">` in it. A link that
// breaks when a heading is renamed fails here with its file and target.

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

namespace {

/// GitHub's anchor of the heading text `heading` (its Markdown, backticks included).
QString anchorOf(const QString &heading)
{
    QString out;
    for (const QChar c : heading.trimmed().toLower()) {
        if (c == u' ')
            out += u'-';
        else if (c.isLetterOrNumber() || c == u'-' || c == u'_')
            out += c;
    }
    return out;
}

/// The anchors of the Markdown file `path`: its headings' (outside code blocks) and its
/// `<a id>`s.
QSet<QString> anchorsOf(const QString &path)
{
    QFile f(path);
    QSet<QString> anchors;
    if (!f.open(QIODevice::ReadOnly))
        return anchors;
    static const QRegularExpression heading(QStringLiteral("^#{1,6}\\s+(.*)$"));
    static const QRegularExpression explicitId(QStringLiteral("<a id=\"([^\"]+)\""));
    QHash<QString, int> seen;
    bool inCode = false;
    for (const QString &line : QString::fromUtf8(f.readAll()).split(u'\n')) {
        if (line.startsWith(QLatin1String("```"))) {
            inCode = !inCode;
            continue;
        }
        if (inCode)
            continue;
        if (const auto m = heading.match(line); m.hasMatch()) {
            const QString base = anchorOf(m.captured(1));
            const int n = seen.value(base, 0);
            seen[base] = n + 1;
            anchors.insert(n == 0 ? base : base + u'-' + QString::number(n));
        }
        for (auto it = explicitId.globalMatch(line); it.hasNext();)
            anchors.insert(it.next().captured(1));
    }
    return anchors;
}

/// The Markdown files a user of a clone reads: README.md, docs/*.md, clients/*/README.md.
QStringList userDocs(const QString &root)
{
    QStringList files{root + QStringLiteral("/README.md")};
    for (const QString &name : QDir(root + QStringLiteral("/docs")).entryList({QStringLiteral("*.md")}, QDir::Files))
        files << root + QStringLiteral("/docs/") + name;
    for (const QString &client : QDir(root + QStringLiteral("/clients")).entryList(QDir::Dirs | QDir::NoDotAndDotDot))
        if (QFileInfo::exists(root + QStringLiteral("/clients/") + client + QStringLiteral("/README.md")))
            files << root + QStringLiteral("/clients/") + client + QStringLiteral("/README.md");
    return files;
}

/// The broken links of the Markdown file `path` in the repository at `root`: "file: target".
QStringList brokenLinks(const QString &root, const QString &path, QHash<QString, QSet<QString>> *anchorCache)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return {path + QStringLiteral(": unreadable")};
    const QString text = QString::fromUtf8(f.readAll());
    const QString rel = QDir(root).relativeFilePath(path);
    // Inline links only: `[text](target)` and `![alt](target)`; code spans are not links
    // but are rarely written so, and a false alarm names its line.
    static const QRegularExpression link(QStringLiteral("\\]\\(([^)\\s]+)\\)"));
    QStringList broken;
    for (auto it = link.globalMatch(text); it.hasNext();) {
        const QString target = it.next().captured(1);
        if (target.contains(QLatin1String("://")) || target.startsWith(QLatin1String("mailto:")))
            continue;
        const qsizetype hash = target.indexOf(u'#');
        const QString file = hash < 0 ? target : target.left(hash);
        const QString fragment = hash < 0 ? QString() : target.mid(hash + 1);
        const QString resolved
            = file.isEmpty() ? path : QDir::cleanPath(QFileInfo(path).absolutePath() + u'/' + file);
        if (!resolved.startsWith(root + u'/') || !QFileInfo::exists(resolved)) {
            broken << rel + QStringLiteral(": ") + target + QStringLiteral(" (no such file in the repository)");
            continue;
        }
        if (fragment.isEmpty() || !resolved.endsWith(QLatin1String(".md")))
            continue;
        if (!anchorCache->contains(resolved))
            anchorCache->insert(resolved, anchorsOf(resolved));
        if (!anchorCache->value(resolved).contains(fragment))
            broken << rel + QStringLiteral(": ") + target + QStringLiteral(" (no such heading)");
    }
    return broken;
}

} // namespace

class TestDocLinks : public QObject
{
    Q_OBJECT

private slots:
    void anchorsAreGitHubs_data()
    {
        QTest::addColumn<QString>("heading");
        QTest::addColumn<QString>("anchor");
        QTest::newRow("code and colon") << "Retries: `Idempotency-Key`" << "retries-idempotency-key";
        QTest::newRow("parentheses") << "Webhooks (owner or admin)" << "webhooks-owner-or-admin";
        QTest::newRow("hyphen and digits") << "PNG bytes against takumi (2026-11-29)"
                                           << "png-bytes-against-takumi-2026-11-29";
        QTest::newRow("slash and dot") << "Use from Node.js / npm" << "use-from-nodejs--npm";
    }
    void anchorsAreGitHubs()
    {
        QFETCH(QString, heading);
        QFETCH(QString, anchor);
        QCOMPARE(anchorOf(heading), anchor);
    }

    void everyLinkResolvesInsideTheRepository()
    {
        const QString root = QDir(QStringLiteral(IMPRINT_SOURCE_DIR)).canonicalPath();
        const QStringList files = userDocs(root);
        QVERIFY(files.size() > 5);
        QHash<QString, QSet<QString>> anchors;
        QStringList broken;
        for (const QString &file : files)
            broken << brokenLinks(root, file, &anchors);
        QVERIFY2(broken.isEmpty(), qPrintable(broken.join(u'\n')));
    }

    void aBrokenLinkIsFound()
    {
        QTemporaryDir dir;
        const QString root = QDir(dir.path()).canonicalPath();
        QFile doc(root + QStringLiteral("/a.md"));
        QVERIFY(doc.open(QIODevice::WriteOnly));
        doc.write("# Title\n\n## Retries: `Key`\n\n[ok](#retries-key) [ok too](a.md#title) [web](https://x.test/#y)\n"
                  "[gone](#retries) [missing](b.md) [outside](../c.md)\n");
        doc.close();
        QHash<QString, QSet<QString>> anchors;
        const QStringList broken = brokenLinks(root, doc.fileName(), &anchors);
        QCOMPARE(broken.size(), 3);
        QVERIFY(broken.at(0).contains(QLatin1String("#retries (no such heading)")));
        QVERIFY(broken.at(1).contains(QLatin1String("b.md (no such file")));
        QVERIFY(broken.at(2).contains(QLatin1String("../c.md (no such file")));
    }
};

QTEST_GUILESS_MAIN(TestDocLinks)
#include "tst_doc_links.moc"
