// The account lookup of process_account.h.

#include "server/render/resources/process_account.h"

#include <pwd.h>
#include <unistd.h>

#include <vector>

namespace imprint::render {

std::optional<ProcessAccount> unprivilegedAccount(const QString &name)
{
    if (::geteuid() != 0 || name.isEmpty())
        return std::nullopt;
    std::vector<char> buffer(16384);
    passwd entry{}, *found = nullptr;
    if (::getpwnam_r(name.toLocal8Bit().constData(), &entry, buffer.data(), buffer.size(), &found) != 0 || !found
        || found->pw_uid == 0)
        return std::nullopt;
    return ProcessAccount{found->pw_uid, found->pw_gid, name};
}

} // namespace imprint::render
