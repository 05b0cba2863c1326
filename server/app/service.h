#pragma once
// The whole HTTP service over one opened data directory: the account/key API,
// the render API and the HttpServer that routes to both. `imprint serve`, the
// local desktop mode (`imprint` alone) and the console tests build it here, so all three
// answer the same routes and render with the same emoji sets.

#include "server/app/commands/cli.h"
#include "server/http/api.h"
#include "server/http/render_api.h"
#include "server/http/server.h"
#include "server/net/remote_image_fetcher.h"
#include "server/service/write_behind.h"

#include <memory>

namespace imprint::app {

/// The HTTP limits of `config` (its "http" section: connections, timeouts, body size,
/// worker queue, workerThreads where 0 = one per core).
http::ServerLimits serverLimits(const store::Config &config);

/// auth.keyUsageFlushMs of `config`: how often API key last-use times and render-log rows
/// are written (ms, default 1000; docs/deployment.md). A clean stop writes them regardless.
int keyUsageFlushMs(const store::Config &config);

/// The render context of a server with this environment: emoji sets from DATA/emoji when
/// they were unpacked there (render::emojiDirectoryFor()), the html engine of
/// render.html.* (Chromium by default when it is installed), and `fetcher` (when not null,
/// it must outlive the context) answering the html engine's requests for http(s) images
/// under the remote image policy (docs/remote-images.md).
render::RenderContextOptions renderContextOptions(const Environment &env, net::RemoteImageFetcher *fetcher = nullptr);

/// The remote image fetcher of a server with this environment: the policy of `config`'s
/// render section (render.imageHostAllowlist, render.remoteImages.*) and the disk cache
/// in DATA/cache/remote-images.
std::unique_ptr<net::RemoteImageFetcher> remoteImageFetcher(const Environment &env);

class Service
{
public:
    /// Builds every route of the service over `env` (which must outlive the Service) and
    /// points the emoji renderer at env.dataDir, so sets unpacked into DATA/emoji are
    /// used. The error says why when the compiled-in pattern catalog does not load.
    /// Listening is left to the caller (server().listen()).
    static common::Expected<std::unique_ptr<Service>, QString> create(const Environment &env);

    /// As create(), with the pattern catalog already loaded.
    Service(const Environment &env, render::PatternCatalog catalog);

    http::Api &api() { return m_api; }
    http::RenderApi &renderApi() { return m_renderApi; }
    http::HttpServer &server() { return m_server; }

private:
    // Declaration order matters: the server (and its worker pool) is destroyed before
    // the APIs whose services its queued jobs still use.
    // Declared before the APIs that render with them: members are destroyed in reverse.
    // The fetcher comes before the context: the context's browser calls it until it is gone.
    // The write-behind goes last, after the server drained and the APIs are gone,
    // writing the last key usage times and render-log rows of a clean stop.
    std::unique_ptr<service::WriteBehind> m_writeBehind;
    std::unique_ptr<net::RemoteImageFetcher> m_imageFetcher;
    render::RenderContext m_renderContext;
    http::Api m_api;
    http::RenderApi m_renderApi;
    http::HttpServer m_server;
};

} // namespace imprint::app
