// The address classes of the fetch policy (see address_policy.h).

#include "server/net/address_policy.h"

#include <QList>

namespace imprint::net {

namespace {

struct Range {
    QPair<QHostAddress, int> subnet;
    AddressClass kind;
};

Range range(const char *cidr, AddressClass kind)
{
    return Range{QHostAddress::parseSubnet(QString::fromLatin1(cidr)), kind};
}

/// IANA IPv4 Special-Purpose Address Registry (RFC 6890 and its updates).
const QList<Range> &ipv4Ranges()
{
    static const QList<Range> ranges = {
        range("0.0.0.0/8", AddressClass::Unspecified), // "this network" (RFC 791)
        range("10.0.0.0/8", AddressClass::Private), // RFC 1918
        range("100.64.0.0/10", AddressClass::Reserved), // shared address space, CGNAT (RFC 6598)
        range("127.0.0.0/8", AddressClass::Loopback),
        range("169.254.0.0/16", AddressClass::LinkLocal), // RFC 3927; cloud metadata
        range("172.16.0.0/12", AddressClass::Private),
        range("192.0.0.0/24", AddressClass::Reserved), // IETF protocol assignments
        range("192.0.2.0/24", AddressClass::Reserved), // TEST-NET-1 (RFC 5737)
        range("192.31.196.0/24", AddressClass::Reserved), // AS112-v4
        range("192.52.193.0/24", AddressClass::Reserved), // AMT
        range("192.88.99.0/24", AddressClass::Reserved), // 6to4 relay anycast (RFC 7526)
        range("192.168.0.0/16", AddressClass::Private),
        range("192.175.48.0/24", AddressClass::Reserved), // direct delegation AS112
        range("198.18.0.0/15", AddressClass::Reserved), // benchmarking (RFC 2544)
        range("198.51.100.0/24", AddressClass::Reserved), // TEST-NET-2
        range("203.0.113.0/24", AddressClass::Reserved), // TEST-NET-3
        range("224.0.0.0/4", AddressClass::Multicast),
        range("240.0.0.0/4", AddressClass::Reserved), // future use, and 255.255.255.255
    };
    return ranges;
}

/// IANA IPv6 Special-Purpose Address Registry, for addresses inside 2000::/3 (everything
/// outside it is not global unicast and is classified before this table is read).
const QList<Range> &ipv6Ranges()
{
    static const QList<Range> ranges = {
        range("2001::/23", AddressClass::Reserved), // IETF protocol assignments, Teredo
        range("2001:db8::/32", AddressClass::Reserved), // documentation (RFC 3849)
        range("3fff::/20", AddressClass::Reserved), // documentation (RFC 9637)
    };
    return ranges;
}

AddressClass classifyIpv4(const QHostAddress &a)
{
    for (const Range &r : ipv4Ranges())
        if (a.isInSubnet(r.subnet))
            return r.kind;
    return AddressClass::Public;
}

/// The IPv4 address in bytes [offset, offset + 4) of `b`.
QHostAddress embeddedIpv4(const Q_IPV6ADDR &b, int offset)
{
    return QHostAddress(quint32(b[offset]) << 24 | quint32(b[offset + 1]) << 16 | quint32(b[offset + 2]) << 8
                        | quint32(b[offset + 3]));
}

AddressClass classifyIpv6(const QHostAddress &a)
{
    const Q_IPV6ADDR b = a.toIPv6Address();
    bool ok = false;
    const quint32 v4 = a.toIPv4Address(&ok); // ::ffff:a.b.c.d (IPv4-mapped)
    if (ok)
        return classifyIpv4(QHostAddress(v4));
    static const auto nat64 = QHostAddress::parseSubnet(QStringLiteral("64:ff9b::/96")); // RFC 6052
    if (a.isInSubnet(nat64))
        return classifyIpv4(embeddedIpv4(b, 12));
    static const auto sixToFour = QHostAddress::parseSubnet(QStringLiteral("2002::/16")); // RFC 3056
    if (a.isInSubnet(sixToFour))
        return classifyIpv4(embeddedIpv4(b, 2));
    if (a == QHostAddress(QHostAddress::AnyIPv6))
        return AddressClass::Unspecified;
    if (a == QHostAddress(QHostAddress::LocalHostIPv6))
        return AddressClass::Loopback;
    if (b[0] == 0xff)
        return AddressClass::Multicast;
    if (b[0] == 0xfe && (b[1] & 0xc0) == 0x80)
        return AddressClass::LinkLocal; // fe80::/10
    if ((b[0] & 0xfe) == 0xfc || (b[0] == 0xfe && (b[1] & 0xc0) == 0xc0))
        return AddressClass::Private; // ULA fc00::/7, deprecated site-local fec0::/10
    static const auto nat64Local = QHostAddress::parseSubnet(QStringLiteral("64:ff9b:1::/48")); // RFC 8215
    if (a.isInSubnet(nat64Local))
        return AddressClass::Private;
    if ((b[0] & 0xe0) != 0x20)
        return AddressClass::Reserved; // outside global unicast 2000::/3 (::/96 compat, 100::/64 discard, ...)
    for (const Range &r : ipv6Ranges())
        if (a.isInSubnet(r.subnet))
            return r.kind;
    return AddressClass::Public;
}

} // namespace

AddressClass classifyAddress(const QHostAddress &address)
{
    switch (address.protocol()) {
    case QAbstractSocket::IPv4Protocol: return classifyIpv4(address);
    case QAbstractSocket::IPv6Protocol: return classifyIpv6(address);
    default: return AddressClass::Reserved;
    }
}

QString addressClassName(AddressClass c)
{
    switch (c) {
    case AddressClass::Public: return QStringLiteral("public");
    case AddressClass::Unspecified: return QStringLiteral("unspecified");
    case AddressClass::Loopback: return QStringLiteral("loopback");
    case AddressClass::Private: return QStringLiteral("private");
    case AddressClass::LinkLocal: return QStringLiteral("link-local");
    case AddressClass::Multicast: return QStringLiteral("multicast");
    case AddressClass::Reserved: return QStringLiteral("reserved");
    }
    return QStringLiteral("reserved");
}

} // namespace imprint::net
