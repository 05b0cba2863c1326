#pragma once
// The client address behind a reverse proxy (docs/deployment.md, "Behind a proxy: the
// client's address"): X-Forwarded-For is believed only when the connection comes from a
// proxy the operator named in `http.trustedProxies`, and then only up to the first hop
// that is not itself a trusted proxy — a client can prepend anything to the header, but
// cannot forge what a trusted proxy appended.

#include "server/common/expected.h"

#include <QByteArray>
#include <QHostAddress>
#include <QList>
#include <QPair>
#include <QStringList>

#include <optional>

namespace imprint::http {

/// The addresses and subnets whose X-Forwarded-For the server believes.
class TrustedProxies
{
public:
    /// Parses `entries`: addresses ("127.0.0.1", "::1") or CIDR subnets ("10.0.0.0/8",
    /// "fd00::/8"), through QHostAddress::parseSubnet. The error names the first entry
    /// that is neither.
    static common::Expected<TrustedProxies, QString> parse(const QStringList &entries);

    bool isEmpty() const { return m_subnets.isEmpty(); }
    /// True when `address` (an IPv4-mapped IPv6 address counts as its IPv4 form) is in a
    /// trusted subnet.
    bool contains(const QHostAddress &address) const;

    /// The client's address for a request from `peer` that carried `forwardedFor` (every
    /// X-Forwarded-For header, in order). `peer` itself unless it is trusted; otherwise the
    /// header's hops read from the right, skipping trusted proxies: the first untrusted hop
    /// is the client (the leftmost when all are trusted). A hop that is no address ends the
    /// walk at the hop after it (the proxy that reported it).
    QHostAddress clientAddress(const QHostAddress &peer, const QList<QByteArray> &forwardedFor) const;

private:
    QList<QPair<QHostAddress, int>> m_subnets;
};

} // namespace imprint::http
