#pragma once
// `imprint serve --demo` (docs/architecture.md): seeds, once, a demo space (plan pro) with an owner
// and hands out working credentials on every start.

#include "server/app/commands/cli.h"
#include "server/store/models.h"

namespace imprint::app {

/// What seedDemo() produced, for printing.
struct DemoCredentials {
    QString email;
    QString password; ///< fresh on every start (the old one is replaced)
    QString apiKeyId;
    QString apiToken; ///< fresh on every start (the previous demo key is revoked)
    QString spareKeyId; ///< a second key, fresh on every start, for the printed revoke line
    bool firstRun = false;
};

/// Seeds space `demo` (plan pro) and owner `owner@demo.local` if absent, then sets a new
/// random password for the owner and replaces the key named "demo" with a new one (and the
/// spare key the printed revoke line revokes, "demo (to revoke)", likewise), so
/// the printed credentials always work (plaintext secrets are never stored, so they
/// cannot be shown again). Calls importDemoContent() on the first run. The error says
/// why on a database failure.
common::Expected<DemoCredentials, QString> seedDemo(Environment &env);

/// Hook for the render API work: imports the demo templates and pages from
/// resources/demo/ into `space` and publishes them. Called once, when the demo space is
/// first created. The error says what failed. Lives in demo_content.cpp.
common::Expected<common::Done, QString> importDemoContent(Environment &env, const store::Space &space);

/// The curl lines of the demo content: the pattern catalog and a render, then
/// for every published page of space `demo` a JSON render and PNG/WebP/SVG downloads,
/// authenticated with demo.apiToken. Lives in demo_content.cpp.
QString demoRenderBanner(Environment &env, const DemoCredentials &demo, const QString &baseUrl);

/// The text `imprint serve --demo` prints first: credentials and ready-to-paste curl
/// lines (health, login, create and list keys) for the server at `baseUrl`
/// (http://host:port).
QString demoBanner(const DemoCredentials &demo, const QString &baseUrl);

/// The curl line `imprint serve --demo` prints last: revoking the spare demo key
/// (DemoCredentials::spareKeyId), not the demo key every line of demoRenderBanner() and
/// docs/api.md's walk-through use.
QString demoClosingBanner(const DemoCredentials &demo, const QString &baseUrl);

} // namespace imprint::app
