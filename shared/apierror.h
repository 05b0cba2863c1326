#pragma once
// A failed API call in one type: a problem+json answer (RFC 9457, docs/api.md), an
// unreachable server, or an answer the client cannot read — with a sentence for people.

#include <QNetworkReply>
#include <QString>
#include <QUrl>

namespace imprint::client {

struct ApiError {
    enum class Kind { None, Network, Http, Protocol };

    Kind kind = Kind::None;
    int status = 0; // HTTP status, 0 for network and protocol errors
    QString type; // problem+json "type"
    QString code; // problem+json "code", e.g. export_size_exceeded
    QString title;
    QString detail;
    QString field; // problem+json "field": the offending input, e.g. template.root.props
    int line = 0; // invalid_template: 1-based line of the place in the template's source, 0 when absent
    int column = 0; // with `line`: 1-based column in characters
    int retryAfterSeconds = -1; // from Retry-After on 429/503, -1 when absent
    QNetworkReply::NetworkError network = QNetworkReply::NoError;
    QString networkText; // Qt's own description of a network error
    QUrl url; // the request's URL (its host names the server in messages)
    bool duringLogin = false;

    bool isError() const { return kind != Kind::None; }
    bool isNetwork() const { return kind == Kind::Network; }
    bool isUnauthorized() const { return status == 401; }
    bool isForbidden() const { return status == 403; }
    bool isNotFound() const { return status == 404; }

    /// One translated sentence (or two) that says what happened and what to do,
    /// never raw JSON. Uses the server's `detail` only where it helps.
    QString humanMessage() const;

    /// Builds the error of a finished reply; Kind::None when the reply succeeded.
    static ApiError fromReply(QNetworkReply *reply, const QByteArray &body);
    static ApiError protocol(const QUrl &url, const QString &what);
};

} // namespace imprint::client
