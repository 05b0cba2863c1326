#pragma once
// Which network addresses a server-side fetch may connect to (docs/remote-images.md): a
// template names a URL, and without this check it could make the server read its own
// admin ports, a cloud metadata service (169.254.169.254) or any host on the private
// network. Only globally routable unicast addresses are public; every special-purpose
// range of the IANA registries (RFC 6890, RFC 8190) is refused, IPv6 forms that embed an
// IPv4 address (mapped, NAT64, 6to4) are judged by the address they embed.

#include <QHostAddress>
#include <QString>

namespace imprint::net {

/// The kind of an address as far as the fetch policy is concerned.
enum class AddressClass : quint8 {
    Public, ///< globally routable unicast: may be fetched
    Unspecified, ///< 0.0.0.0/8, ::
    Loopback, ///< 127.0.0.0/8, ::1
    Private, ///< RFC 1918, ULA fc00::/7, site-local fec0::/10, NAT64 local-use
    LinkLocal, ///< 169.254.0.0/16 (cloud metadata), fe80::/10
    Multicast, ///< 224.0.0.0/4, ff00::/8
    Reserved, ///< CGNAT, benchmarking, documentation, IETF, 240/4, non-global IPv6
};

/// The class of `address` (IPv4 or IPv6; an IPv4-mapped, NAT64 or 6to4 IPv6 address is
/// the class of the IPv4 address inside it). An invalid address is Reserved.
AddressClass classifyAddress(const QHostAddress &address);

/// A short English name of `c` ("loopback", "private", "link-local", ...) for messages.
QString addressClassName(AddressClass c);

} // namespace imprint::net
