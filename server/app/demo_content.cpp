#include "server/app/demo.h"

namespace imprint::app {

bool importDemoContent(Environment &env, const store::Space &space, QString *error)
{
    // Issue 5 (render API) imports resources/demo/ templates and pages here.
    Q_UNUSED(env);
    Q_UNUSED(space);
    Q_UNUSED(error);
    return true;
}

} // namespace imprint::app
