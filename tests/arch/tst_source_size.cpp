// Issue 27's limits on how much one reader has to hold at once: no source file over 900
// lines, no function body over 150 lines (data tables aside). Held against every .h and
// .cpp of server/, gui/, shared/ and tests/, so a file or function that grows past the
// line fails here with its name and line instead of waiting for a review.
//
// A function body is found by its shape, the one clang-format gives this tree: a line that
// is only `{`, under a signature (or constructor initialiser list) at the same indentation
// that is not a class, struct, enum, namespace, control statement or initialiser, closed by
// the first `}` at that indentation.

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QTest>

namespace {

constexpr int kMaxFileLines = 900;
constexpr int kMaxFunctionLines = 150;

/// Functions that are data, not logic (one row a property), with no limit of their own.
bool isDataTable(const QString &rel, const QByteArray &signature)
{
    return rel == QLatin1String("server/render/style/properties.cpp") && signature.contains("::table()");
}

int indentOf(const QByteArray &line)
{
    int n = 0;
    while (n < line.size() && (line[n] == ' ' || line[n] == '\t'))
        ++n;
    return n;
}

/// The violations of `lines` (one file, `rel` to the repository).
QStringList oversized(const QString &rel, const QList<QByteArray> &lines)
{
    // moc cannot read raw string literals, so the pattern is spelled with escapes.
    static const QRegularExpression notAFunction(
        QStringLiteral("^\\s*(class|struct|enum|namespace|union|extern|if|for|while|switch|do|else|try|catch)\\b"
                       "|=\\s*$|,\\s*$|^\\s*\"|^\\s*//"));
    QStringList out;
    if (lines.size() > kMaxFileLines)
        out << QStringLiteral("%1 has %2 lines (at most %3)").arg(rel).arg(lines.size()).arg(kMaxFileLines);
    for (int i = 0; i < lines.size(); ++i) {
        if (lines[i].trimmed() != "{")
            continue;
        const int indent = indentOf(lines[i]);
        int k = i - 1;
        while (k >= 0 && lines[k].trimmed().isEmpty())
            --k;
        // Back over a multi-line signature or an initialiser list to the signature's first line.
        while (k > 0
               && (indentOf(lines[k]) > indent || lines[k].trimmed().startsWith(':')
                   || lines[k].trimmed().startsWith(',')))
            --k;
        if (k < 0 || notAFunction.match(QString::fromUtf8(lines[k])).hasMatch() || isDataTable(rel, lines[k]))
            continue;
        const QByteArray close = lines[i].left(indent) + '}';
        int end = i + 1;
        while (end < lines.size()
               && !(lines[end].startsWith(close)
                    && (lines[end].size() == indent + 1 || lines[end][indent + 1] == ';'
                        || lines[end][indent + 1] == ' ')))
            ++end;
        const int body = end - i - 1;
        if (body > kMaxFunctionLines)
            out << QStringLiteral("%1:%2 a function body of %3 lines (at most %4): %5")
                       .arg(rel)
                       .arg(k + 1)
                       .arg(body)
                       .arg(kMaxFunctionLines)
                       .arg(QString::fromUtf8(lines[k].trimmed().left(70)));
    }
    return out;
}

} // namespace

class TestSourceSize : public QObject
{
    Q_OBJECT

private slots:
    void filesAndFunctionsStayShort()
    {
        const QString root = QStringLiteral(IMPRINT_SOURCE_DIR);
        QStringList violations;
        int files = 0;
        for (const QString &top :
             {QStringLiteral("server"), QStringLiteral("gui"), QStringLiteral("shared"), QStringLiteral("tests")}) {
            QDirIterator it(root + '/' + top, {"*.h", "*.cpp"}, QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                const QString file = it.next();
                const QString rel = file.mid(root.size() + 1);
                if (rel.startsWith(QLatin1String("tests/fuzz/corpus")))
                    continue;
                QFile f(file);
                QVERIFY(f.open(QIODevice::ReadOnly));
                QList<QByteArray> lines = f.readAll().split('\n');
                if (!lines.isEmpty() && lines.constLast().isEmpty())
                    lines.removeLast();
                ++files;
                violations << oversized(rel, lines);
            }
        }
        QVERIFY(files > 100);
        QVERIFY2(violations.isEmpty(), qPrintable(violations.join('\n')));
    }

    // The measure itself must see what it is for: a long function, and not a long class.
    void measureFindsLongFunctionsOnly()
    {
        QList<QByteArray> fn{"int f()", "{"};
        for (int i = 0; i < 151; ++i)
            fn << "    ++x;";
        fn << "}";
        QCOMPARE(oversized(QStringLiteral("a.cpp"), fn).size(), 1);
        fn[0] = "class Long";
        QCOMPARE(oversized(QStringLiteral("a.cpp"), fn).size(), 0);
        fn[0] = "    void member() const";
        fn[1] = "    {";
        fn.last() = "    }";
        QCOMPARE(oversized(QStringLiteral("a.cpp"), fn).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSourceSize)
#include "tst_source_size.moc"
