// The render options' name tables (server/common/render_enums.h) are the one list of
// engines, output formats, PNG tiers and emoji sets: the parsers read them, and this suite
// holds the lists written for people and tools against them: the OpenAPI document
// (resources/openapi/openapi.json) and the tables of docs/api.md.

#include "server/common/render_enums.h"
#include "server/render/encode/encode.h"
#include "server/render/pipeline.h"
#include "server/render/resources/emoji.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

using namespace imprint::render;

namespace {

QByteArray readSource(const QString &relative)
{
    QFile f(QStringLiteral(IMPRINT_SOURCE_DIR "/") + relative);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("cannot read %s", qPrintable(relative));
    return f.readAll();
}

QStringList bitmapFormatNames()
{
    return kOutputFormatNames.namesWhere([](OutputFormat f) { return !outputFormatInfo(f).vector; });
}

/// Every enum the OpenAPI document gives a parameter or property called `name`, found
/// anywhere in `v` except under a `not` (values a combination is refused with, such as a
/// pattern render's vector formats, not the field's table). A field's `$ref` to a named
/// schema is read in `root`, the whole document.
void collectEnums(const QJsonValue &v, const QString &name, QList<QStringList> *out, const QJsonObject &root = {})
{
    const auto toList = [](const QJsonArray &a) {
        QStringList l;
        for (const QJsonValue &e : a)
            if (e.isString()) // null in a nullable table is "left out", not a name
                l << e.toString();
        return l;
    };
    if (v.isArray()) {
        for (const QJsonValue &e : v.toArray())
            collectEnums(e, name, out, root);
        return;
    }
    if (!v.isObject())
        return;
    const QJsonObject o = v.toObject();
    if (o.value(QStringLiteral("name")).toString() == name && o.value(QStringLiteral("schema")).isObject()) {
        const QJsonArray e = o.value(QStringLiteral("schema")).toObject().value(QStringLiteral("enum")).toArray();
        if (!e.isEmpty())
            out->append(toList(e));
    }
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() == name && it.value().isObject()) {
            // A nullable field is a oneOf of its table (inline or a named schema) and null.
            QJsonArray forms = it.value().toObject().value(QStringLiteral("oneOf")).toArray();
            forms.prepend(it.value());
            for (const QJsonValue &form : forms) {
                QJsonObject schema = form.toObject();
                const QString ref = schema.value(QStringLiteral("$ref")).toString();
                if (ref.startsWith(QLatin1String("#/components/schemas/")))
                    schema = root.value(QStringLiteral("components")).toObject().value(QStringLiteral("schemas"))
                                 .toObject().value(ref.mid(21)).toObject();
                const QStringList e = toList(schema.value(QStringLiteral("enum")).toArray());
                if (!e.isEmpty())
                    out->append(e);
            }
        }
        if (it.key() != QLatin1String("not"))
            collectEnums(it.value(), name, out, root);
    }
}

/// The backticked names in the second cell of docs/api.md's table row for `field`
/// ("| `field` | `a`, `b` … |"), in the order written; one list per such row.
QList<QStringList> docRows(const QString &field)
{
    const QString doc = QString::fromUtf8(readSource(QStringLiteral("docs/api.md")));
    static const QRegularExpression code(QStringLiteral("`([a-z0-9]+)`"));
    QList<QStringList> rows;
    for (const QString &line : doc.split(u'\n')) {
        if (!line.startsWith(QStringLiteral("| `%1` |").arg(field)))
            continue;
        const QString cell = line.section(u'|', 2, 2);
        QStringList names;
        for (auto m = code.globalMatch(cell); m.hasNext();)
            names << m.next().captured(1);
        rows << names;
    }
    return rows;
}

QStringList sorted(QStringList l)
{
    l.sort();
    return l;
}

} // namespace

class TestEnumTables : public QObject
{
    Q_OBJECT

private slots:
    void parsersReadTheTables()
    {
        for (const QString &n : kEngineNames.names())
            QCOMPARE(engineName(*parseEngine(n)), n);
        for (const QString &n : kOutputFormatNames.names()) {
            QCOMPARE(outputFormatName(*parseOutputFormat(n.toUpper())), n);
            QCOMPARE(contentTypeFor(*parseOutputFormat(n)),
                     QString::fromLatin1(outputFormatInfo(*parseOutputFormat(n)).contentType));
        }
        QCOMPARE(parseOutputFormat(QStringLiteral("jpg")), std::optional<OutputFormat>(OutputFormat::Jpeg));
        for (const QString &n : kPngCompressionNames.names())
            QCOMPARE(pngCompressionName(*parsePngCompression(n)), n);
        for (const QString &n : kEmojiSetNames.names())
            QCOMPARE(emojiSetName(*parseEmojiSet(n)), n);
        QCOMPARE(emojiSetNames(), kEmojiSetNames.names());
        QCOMPARE(kEngineNames.orList(), QStringLiteral("satori, takumi or html"));
    }

    void openApiEnumsAreTheTables()
    {
        const QJsonObject doc = QJsonDocument::fromJson(readSource(QStringLiteral("resources/openapi/openapi.json"))).object();
        QVERIFY(!doc.isEmpty());
        const struct {
            const char *field;
            QStringList names;
        } simple[] = {{"renderType", kEngineNames.names()},
                      {"rendererType", kEngineNames.names()},
                      {"emojiType", kEmojiSetNames.names()},
                      {"compression", kPngCompressionNames.names()}};
        for (const auto &s : simple) {
            QList<QStringList> enums;
            collectEnums(doc, QLatin1String(s.field), &enums, doc);
            QVERIFY2(!enums.isEmpty(), s.field);
            for (const QStringList &e : enums)
                QCOMPARE(sorted(e), sorted(s.names));
        }
        // `format`: a page render's every format, a pattern render's bitmap ones; `jpg`
        // is read as jpeg. The metrics route's `format` (json, prometheus) and an uploaded
        // font's (ttf, otf, woff, woff2) are other fields.
        QList<QStringList> formats;
        collectEnums(doc, QStringLiteral("format"), &formats, doc);
        int checked = 0;
        for (QStringList e : formats) {
            if (e.contains(QStringLiteral("prometheus")) || e.contains(QStringLiteral("woff2")))
                continue;
            e.removeAll(QStringLiteral("jpg"));
            QCOMPARE(sorted(e), sorted(e.contains(QStringLiteral("svg")) ? kOutputFormatNames.names() : bitmapFormatNames()));
            ++checked;
        }
        QVERIFY(checked >= 3);
    }

    void docTablesAreTheTables()
    {
        QCOMPARE(docRows(QStringLiteral("renderType")), QList<QStringList>{kEngineNames.names()});
        QCOMPARE(docRows(QStringLiteral("emojiType")), QList<QStringList>{kEmojiSetNames.names()});
        const QList<QStringList> compression = docRows(QStringLiteral("compression"));
        QCOMPARE(compression.size(), 1);
        QCOMPARE(compression.first().mid(0, kPngCompressionNames.names().size()), kPngCompressionNames.names());
        // Page renders list every format (jpeg "also jpg"), pattern renders the bitmap ones.
        QList<QStringList> formats = docRows(QStringLiteral("format"));
        QCOMPARE(formats.size(), 2);
        formats[0].removeAll(QStringLiteral("jpg"));
        QCOMPARE(formats[0], kOutputFormatNames.names());
        QCOMPARE(formats[1], bitmapFormatNames());
        // The formats table: one row per format with its Content-Type.
        const QString doc = QString::fromUtf8(readSource(QStringLiteral("docs/api.md")));
        for (const OutputFormatInfo &row : kOutputFormats) {
            const QString line
                = QStringLiteral("| `%1` | `%2` |").arg(QLatin1String(row.name), QLatin1String(row.contentType));
            QVERIFY2(doc.contains(line), qPrintable(line));
        }
    }
};

QTEST_GUILESS_MAIN(TestEnumTables)
#include "tst_enum_tables.moc"
