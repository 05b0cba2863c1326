#include "gui/screenshot.h"

#include "shared/apiclient.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QPixmap>
#include <QPointer>
#include <QTimer>
#include <QWidget>

#include <memory>

namespace imprint {
namespace gui {

bool grabToPng(QWidget *window, const QString &path)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    return window->grab().save(path, "PNG");
}

void screenshotWhenSettled(QWidget *window, client::ApiClient *client, const QString &path,
                           std::function<void(bool)> done, int timeoutMs)
{
    auto timer = new QTimer(window);
    auto clock = std::make_shared<QElapsedTimer>();
    auto quietSince = std::make_shared<qint64>(-1);
    clock->start();
    timer->setInterval(50);
    QObject::connect(timer, &QTimer::timeout, window, [=] {
        const bool busy = !window->isVisible() || (client && client->pendingRequests() > 0);
        if (busy)
            *quietSince = -1;
        else if (*quietSince < 0)
            *quietSince = clock->elapsed();
        const bool settled = *quietSince >= 0 && clock->elapsed() - *quietSince >= 400 && clock->elapsed() >= 600;
        if (!settled && clock->elapsed() < timeoutMs)
            return;
        timer->stop();
        timer->deleteLater();
        done(grabToPng(window, path));
    });
    timer->start();
}

} // namespace gui
} // namespace imprint
