#include "shared/apierror.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>

namespace imprint::client {

namespace {

QString serverName(const QUrl &url)
{
    if (url.host().isEmpty())
        return url.toString();
    return url.port() > 0 ? QStringLiteral("%1:%2").arg(url.host()).arg(url.port()) : url.host();
}

// Server detail worth showing: a short human sentence, not a stack or JSON.
QString usefulDetail(const QString &detail)
{
    const QString d = detail.trimmed();
    if (d.isEmpty() || d.size() > 300 || d.startsWith(QLatin1Char('{')) || d.startsWith(QLatin1Char('<')))
        return {};
    return d;
}

} // namespace

ApiError ApiError::protocol(const QUrl &url, const QString &what)
{
    ApiError e;
    e.kind = Kind::Protocol;
    e.url = url;
    e.detail = what;
    return e;
}

ApiError ApiError::fromReply(QNetworkReply *reply, const QByteArray &body)
{
    ApiError e;
    e.url = reply->request().url();
    const QVariant statusAttr = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute);
    e.status = statusAttr.isValid() ? statusAttr.toInt() : 0;
    if (e.status == 0) {
        if (reply->error() == QNetworkReply::NoError)
            return e;
        e.kind = Kind::Network;
        e.network = reply->error();
        e.networkText = reply->errorString();
        return e;
    }
    if (e.status >= 200 && e.status < 300)
        return e;
    e.kind = Kind::Http;
    const QByteArray retry = reply->rawHeader("Retry-After");
    if (!retry.isEmpty()) {
        bool ok = false;
        const int secs = retry.trimmed().toInt(&ok);
        e.retryAfterSeconds = ok ? secs : -1;
    }
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    e.type = o.value(QLatin1String("type")).toString();
    e.title = o.value(QLatin1String("title")).toString();
    e.detail = o.value(QLatin1String("detail")).toString();
    e.code = o.value(QLatin1String("code")).toString();
    e.field = o.value(QLatin1String("field")).toString();
    e.line = o.value(QLatin1String("line")).toInt();
    e.column = o.value(QLatin1String("column")).toInt();
    if (e.detail.isEmpty()) // `{success:false, message|error: "..."}` envelopes
        e.detail = o.value(QLatin1String("message")).toString(o.value(QLatin1String("error")).toString());
    if (e.title.isEmpty())
        e.title = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    return e;
}

QString ApiError::humanMessage() const
{
    // The sentences about reaching the server name it as %1.
    const auto aboutServer = [this](const char *sentence) {
        return QCoreApplication::translate("ApiError", sentence).arg(serverName(url));
    };
    switch (kind) {
    case Kind::None: return {};
    case Kind::Protocol:
        return aboutServer(QT_TRANSLATE_NOOP("ApiError",
                                             "The server at %1 sent an answer the console does not understand. "
                                             "Is this an Imprint server?"));
    case Kind::Network:
        switch (network) {
        case QNetworkReply::ConnectionRefusedError:
        case QNetworkReply::HostNotFoundError:
        case QNetworkReply::RemoteHostClosedError:
            return aboutServer(QT_TRANSLATE_NOOP("ApiError",
                                                 "The server at %1 could not be reached. Check the address and that "
                                                 "the server is running."));
        case QNetworkReply::TimeoutError:
        case QNetworkReply::OperationCanceledError:
            return aboutServer(
                QT_TRANSLATE_NOOP("ApiError", "The server at %1 did not answer in time. Please try again."));
        case QNetworkReply::SslHandshakeFailedError:
            return aboutServer(QT_TRANSLATE_NOOP("ApiError", "A secure connection to %1 could not be established."));
        default:
            return QCoreApplication::translate("ApiError", "The server at %1 could not be reached (%2).")
                .arg(serverName(url), networkText);
        }
    case Kind::Http: break;
    }
    const QString detail = usefulDetail(this->detail);
    switch (status) {
    case 400:
        return detail.isEmpty()
                   ? QCoreApplication::translate("ApiError", "The server did not accept the request.")
                   : QCoreApplication::translate("ApiError", "The server did not accept the request: %1").arg(detail);
    case 401:
        if (duringLogin)
            return QCoreApplication::translate("ApiError", "The email address or password is not correct.");
        return QCoreApplication::translate("ApiError", "Your session has expired. Please sign in again.");
    case 402:
        return QCoreApplication::translate("ApiError", "The image is larger than your plan allows.")
               + (detail.isEmpty() ? QString() : QLatin1Char(' ') + detail);
    case 403: return QCoreApplication::translate("ApiError", "You need the owner or admin role to do this.");
    case 404:
        return QCoreApplication::translate("ApiError",
                                           "It no longer exists. It may have been deleted or revoked elsewhere.");
    case 413: return QCoreApplication::translate("ApiError", "The request is too large for the server.");
    case 429:
        if (retryAfterSeconds > 0)
            return QCoreApplication::translate("ApiError", "Too many attempts. Please wait %n second(s) and try again.",
                                               nullptr, retryAfterSeconds);
        return QCoreApplication::translate("ApiError", "Too many attempts. Please wait a moment and try again.");
    case 503:
        if (retryAfterSeconds > 0)
            return QCoreApplication::translate("ApiError", "The server is busy. Please try again in %n second(s).",
                                               nullptr, retryAfterSeconds);
        return QCoreApplication::translate("ApiError", "The server is busy. Please try again in a moment.");
    default:
        if (status >= 500)
            return QCoreApplication::translate("ApiError",
                                               "The server ran into a problem (error %1). Please try again later.")
                .arg(status);
        return detail.isEmpty()
                   ? QCoreApplication::translate("ApiError", "The server refused the request (error %1).").arg(status)
                   : QCoreApplication::translate("ApiError", "The server refused the request (error %1): %2")
                         .arg(QString::number(status), detail);
    }
}

} // namespace imprint::client
