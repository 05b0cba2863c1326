#pragma once
// Renders a window to a PNG once it is shown and the network is quiet: the console's
// `--screenshot PATH` option and a helper for tests.

#include <QString>

#include <functional>

class QWidget;

namespace imprint::client {
class ApiClient;
}

namespace imprint {
namespace gui {

/// Waits until `window` is visible and `client` has had no request in flight for a
/// moment (at most `timeoutMs`), grabs it to `path`, then calls `done(ok)`.
void screenshotWhenSettled(QWidget *window, client::ApiClient *client, const QString &path,
                           std::function<void(bool ok)> done, int timeoutMs = 15000);

/// Grabs `window` to a PNG at `path` now.
bool grabToPng(QWidget *window, const QString &path);

} // namespace gui
} // namespace imprint
