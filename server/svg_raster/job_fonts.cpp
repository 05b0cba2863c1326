// A job's uploaded faces in fontconfig (see job_fonts.h).

#include "server/svg_raster/job_fonts.h"

#include <QHash>
#include <QXmlStreamWriter>

#include <fontconfig/fontconfig.h>
#include <sys/mman.h>
#include <unistd.h>

namespace imprint::render {

namespace {

/// The rules of job_fonts.h for `fonts`, each face's alias from `aliasOf`.
QByteArray fontRules(const QList<SvgRasterFont> &fonts, const QHash<QString, QString> &aliasOf)
{
    QByteArray xml;
    QXmlStreamWriter w(&xml);
    w.writeStartDocument();
    w.writeStartElement(QStringLiteral("fontconfig"));
    for (const SvgRasterFont &font : fonts) {
        w.writeStartElement(QStringLiteral("match"));
        w.writeAttribute(QStringLiteral("target"), QStringLiteral("scan"));
        w.writeStartElement(QStringLiteral("test"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("family"));
        w.writeTextElement(QStringLiteral("string"), font.fileFamily);
        w.writeEndElement();
        const auto edit = [&w](const QString &name, const QString &mode, const QString &type, const QString &value) {
            w.writeStartElement(QStringLiteral("edit"));
            w.writeAttribute(QStringLiteral("name"), name);
            w.writeAttribute(QStringLiteral("mode"), mode);
            w.writeTextElement(type, value);
            w.writeEndElement();
        };
        edit(QStringLiteral("family"), QStringLiteral("assign_replace"), QStringLiteral("string"),
             aliasOf.value(font.family.toLower()));
        if (font.weight > 0)
            edit(QStringLiteral("weight"), QStringLiteral("assign"), QStringLiteral("double"),
                 QString::number(FcWeightFromOpenTypeDouble(double(font.weight))));
        edit(QStringLiteral("slant"), QStringLiteral("assign"), QStringLiteral("int"),
             QString::number(font.italic ? FC_SLANT_ITALIC : FC_SLANT_ROMAN));
        w.writeEndElement();
    }
    for (auto it = aliasOf.constBegin(); it != aliasOf.constEnd(); ++it) {
        w.writeStartElement(QStringLiteral("match"));
        w.writeAttribute(QStringLiteral("target"), QStringLiteral("pattern"));
        w.writeStartElement(QStringLiteral("test"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("family"));
        w.writeAttribute(QStringLiteral("qual"), QStringLiteral("any"));
        w.writeTextElement(QStringLiteral("string"), it.key());
        w.writeEndElement();
        w.writeStartElement(QStringLiteral("edit"));
        w.writeAttribute(QStringLiteral("name"), QStringLiteral("family"));
        w.writeAttribute(QStringLiteral("mode"), QStringLiteral("prepend"));
        w.writeAttribute(QStringLiteral("binding"), QStringLiteral("strong"));
        w.writeTextElement(QStringLiteral("string"), it.value());
        w.writeEndElement();
        w.writeEndElement();
    }
    w.writeEndElement();
    w.writeEndDocument();
    return xml;
}

/// A memory file holding `bytes` (it lives as long as this process, which draws one
/// document); its path for FreeType, or empty.
QByteArray memoryFile(const QByteArray &bytes)
{
    const int fd = ::memfd_create("imprint-font", 0);
    if (fd < 0)
        return {};
    qsizetype written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.constData() + written, size_t(bytes.size() - written));
        if (n <= 0) {
            ::close(fd);
            return {};
        }
        written += n;
    }
    return "/proc/self/fd/" + QByteArray::number(fd);
}

} // namespace

int addJobFonts(const QList<SvgRasterFont> &fonts)
{
    if (fonts.isEmpty())
        return 0;
    FcConfig *config = FcConfigGetCurrent();
    if (!config)
        return int(fonts.size());
    QHash<QString, QString> aliasOf; // template family, lower case → alias
    for (const SvgRasterFont &font : fonts)
        if (!aliasOf.contains(font.family.toLower()))
            aliasOf.insert(font.family.toLower(), QStringLiteral("imprint-svg-font-%1").arg(aliasOf.size()));
    const QByteArray rules = fontRules(fonts, aliasOf);
    if (!FcConfigParseAndLoadFromMemory(config, reinterpret_cast<const FcChar8 *>(rules.constData()), FcFalse))
        return int(fonts.size());
    int failed = 0;
    for (const SvgRasterFont &font : fonts) {
        const QByteArray path = memoryFile(font.sfnt);
        if (path.isEmpty() || !FcConfigAppFontAddFile(config, reinterpret_cast<const FcChar8 *>(path.constData())))
            ++failed;
    }
    return failed;
}

} // namespace imprint::render
