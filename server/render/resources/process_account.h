#pragma once
// The unprivileged account a child process of the render pipeline switches to when the
// server runs as root (docs/deployment.md, `render.html.user`): the html engine's browser
// (backends/chromium) and the untrusted-SVG helper (imprint-svg-raster) look it up alike.

#include <QString>

#include <optional>
#include <sys/types.h>

namespace imprint::render {

/// An account a child switches to: its ids and name.
struct ProcessAccount {
    uid_t uid = 0;
    gid_t gid = 0;
    QString name;
};

/// The account named `name` when this process runs as root and the account exists and is
/// not root itself; nullopt otherwise (not root: the child runs as this process's user;
/// no such account: it stays root, which the caller reports).
std::optional<ProcessAccount> unprivilegedAccount(const QString &name);

} // namespace imprint::render
