#include "server/http/forwarded_for.h"

namespace imprint::http {

namespace {

// ::ffff:a.b.c.d and a.b.c.d are one client; subnets are written in IPv4 form.
QHostAddress normalised(const QHostAddress &address)
{
    bool isV4 = false;
    const quint32 v4 = address.toIPv4Address(&isV4);
    return isV4 ? QHostAddress(v4) : address;
}

} // namespace

common::Expected<TrustedProxies, QString> TrustedProxies::parse(const QStringList &entries)
{
    TrustedProxies proxies;
    for (const QString &raw : entries) {
        const QString entry = raw.trimmed();
        QPair<QHostAddress, int> subnet;
        if (entry.contains(QLatin1Char('/'))) {
            subnet = QHostAddress::parseSubnet(entry);
        } else if (QHostAddress address(entry); !address.isNull()) {
            address = normalised(address);
            subnet = {address, address.protocol() == QAbstractSocket::IPv4Protocol ? 32 : 128};
        }
        if (subnet.first.isNull() || subnet.second < 0)
            return QStringLiteral("\"%1\" is neither an IP address nor a subnet (CIDR)").arg(raw);
        proxies.m_subnets.append(subnet);
    }
    return proxies;
}

bool TrustedProxies::contains(const QHostAddress &address) const
{
    const QHostAddress a = normalised(address);
    for (const auto &subnet : m_subnets)
        if (a.isInSubnet(subnet))
            return true;
    return false;
}

QHostAddress TrustedProxies::clientAddress(const QHostAddress &peer, const QList<QByteArray> &forwardedFor) const
{
    if (m_subnets.isEmpty() || !contains(peer))
        return peer;
    QList<QByteArray> hops;
    for (const QByteArray &header : forwardedFor)
        hops += header.split(',');
    QHostAddress client = peer;
    for (auto hop = hops.crbegin(); hop != hops.crend(); ++hop) {
        const QHostAddress address(QString::fromLatin1(hop->trimmed()));
        if (address.isNull())
            break;
        client = normalised(address);
        if (!contains(client))
            break;
    }
    return client;
}

} // namespace imprint::http
