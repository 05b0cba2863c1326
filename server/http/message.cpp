#include "server/http/message.h"

#include <QJsonDocument>

namespace imprint::http {

QByteArray HttpRequest::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

std::optional<QString> HttpRequest::queryValue(const QString &key) const
{
    if (!query.hasQueryItem(key))
        return std::nullopt;
    return query.queryItemValue(key, QUrl::FullyDecoded);
}

QString HttpRequest::bearerToken() const
{
    const QByteArray auth = header("authorization").trimmed();
    if (auth.size() > 7 && auth.left(7).compare("Bearer ", Qt::CaseInsensitive) == 0)
        return QString::fromLatin1(auth.mid(7).trimmed());
    return {};
}

QString HttpRequest::cookie(const QString &name) const
{
    for (const auto &h : headers) {
        if (h.first != "cookie")
            continue;
        for (const QByteArray &part : h.second.split(';')) {
            const int eq = part.indexOf('=');
            if (eq > 0 && QString::fromLatin1(part.left(eq).trimmed()) == name)
                return QString::fromLatin1(part.mid(eq + 1).trimmed());
        }
    }
    return {};
}

HttpResponse &HttpResponse::withHeader(const QByteArray &name, const QByteArray &value)
{
    headers.append({name, value});
    return *this;
}

QByteArray HttpResponse::header(const QByteArray &name) const
{
    for (const auto &h : headers) {
        if (h.first.compare(name, Qt::CaseInsensitive) == 0)
            return h.second;
    }
    return {};
}

HttpResponse HttpResponse::json(int status, const QJsonObject &body)
{
    return bytes(status, "application/json", QJsonDocument(body).toJson(QJsonDocument::Compact));
}

HttpResponse HttpResponse::success(const QJsonObject &data, int status)
{
    return json(status, QJsonObject{{QStringLiteral("success"), true}, {QStringLiteral("data"), data}});
}

HttpResponse HttpResponse::bytes(int status, const QByteArray &contentType, const QByteArray &body)
{
    HttpResponse r;
    r.status = status;
    r.body = body;
    r.headers.append({"Content-Type", contentType});
    return r;
}

QByteArray reasonPhrase(int status)
{
    switch (status) {
    case 200: return "OK";
    case 201: return "Created";
    case 204: return "No Content";
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 402: return "Payment Required";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 415: return "Unsupported Media Type";
    case 422: return "Unprocessable Content";
    case 429: return "Too Many Requests";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    default: return "Unknown";
    }
}

HttpResponse problem(int status, const QString &code, const QString &detail)
{
    const QJsonObject body{
        // A URN, not a URL: it identifies the problem type without promising a page.
        {QStringLiteral("type"), QStringLiteral("urn:imprint:problem:") + code},
        {QStringLiteral("title"), QString::fromLatin1(reasonPhrase(status))},
        {QStringLiteral("status"), status},
        {QStringLiteral("detail"), detail},
        {QStringLiteral("code"), code},
        {QStringLiteral("success"), false},
    };
    return HttpResponse::bytes(status, "application/problem+json", QJsonDocument(body).toJson(QJsonDocument::Compact));
}

} // namespace imprint::http
