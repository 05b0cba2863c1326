#include "server/service/account_service.h"

#include "server/service/lookup.h"
#include "server/store/crypto.h"
#include "server/store/repositories.h"
#include "server/store/sql.h"

#include <QRegularExpression>

namespace imprint::service {

using store::AuditRepository;
using store::dummyPasswordHash;
using store::hashPassword;
using store::Membership;
using store::newSessionToken;
using store::nowMs;
using store::randomId;
using store::Role;
using store::roleName;
using store::SessionInfo;
using store::SessionRepository;
using store::sha256Hex;
using store::Space;
using store::SpaceRepository;
using store::Transaction;
using store::User;
using store::UserRepository;
using store::verifyPassword;

namespace {

bool validSpaceName(const QString &name)
{
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9._-]{1,64}$"));
    return re.match(name).hasMatch();
}

// The throttle's key of a login e-mail: every spelling of one address counts against it
// (as normaliseEmail() would store it), and text that is no address still gets a key, so
// guessing cannot dodge the limit by sending malformed e-mails.
QString throttleKey(const QString &email)
{
    return email.trimmed().toLower();
}

} // namespace

store::PlanLimits AccountService::planLimits(const QString &plan) const
{
    return m_config.plan(plan).value_or(store::PlanLimits{});
}

std::optional<ServiceError> AccountService::checkPassword(const QString &password)
{
    if (password.size() < 8 || password.size() > 1024)
        return ServiceError::invalid(ProblemCode::InvalidPassword, QStringLiteral("password"),
                                     QStringLiteral("The password must be 8 to 1024 characters long."));
    return std::nullopt;
}

std::optional<QString> AccountService::normaliseEmail(const QString &email)
{
    static const QRegularExpression re(QStringLiteral("^[^@\\s]+@[^@\\s]+$"));
    const QString e = email.trimmed().toLower();
    if (e.size() > 254 || !re.match(e).hasMatch())
        return std::nullopt;
    return e;
}

Result<Space> AccountService::createSpace(const QString &name, const QString &plan, const QString &actor)
{
    if (!validSpaceName(name))
        return ServiceError::invalid(ProblemCode::InvalidName, QStringLiteral("name"),
                                     QStringLiteral("A space name is 1 to 64 letters, digits, '.', '_' or '-'."));
    if (!m_config.plan(plan))
        return ServiceError::invalid(ProblemCode::InvalidPlan, QStringLiteral("plan"),
                                     QStringLiteral("Unknown plan '%1' (one of %2).")
                                         .arg(plan, m_config.planNames().join(QStringLiteral(", "))));
    SpaceRepository spaces(m_db);
    const auto existing = spaces.byName(name);
    if (!existing)
        return existing.error();
    if (*existing)
        return ServiceError{ProblemCode::SpaceExists, QStringLiteral("name"),
                            QStringLiteral("A space named '%1' already exists.").arg(name)};
    Transaction tx(m_db);
    const Space s{randomId(QStringLiteral("spc_")), name, plan, nowMs()};
    if (!tx.isOpen() || !spaces.insert(s)
        || !AuditRepository(m_db).append(s.id, actor, QStringLiteral("space.create"), s.id, plan) || !tx.commit())
        return ServiceError::database();
    return s;
}

Result<Space> AccountService::setPlan(const QString &name, const QString &plan, const QString &actor)
{
    if (!m_config.plan(plan))
        return ServiceError::invalid(ProblemCode::InvalidPlan, QStringLiteral("plan"),
                                     QStringLiteral("Unknown plan '%1' (one of %2).")
                                         .arg(plan, m_config.planNames().join(QStringLiteral(", "))));
    auto space = spaceByName(name);
    if (!space)
        return space.error();
    Transaction tx(m_db);
    if (!tx.isOpen() || !SpaceRepository(m_db).setPlan(space->id, plan)
        || !AuditRepository(m_db).append(space->id, actor, QStringLiteral("space.set_plan"), space->id, plan)
        || !tx.commit())
        return ServiceError::database();
    Space updated = space.value();
    updated.plan = plan;
    return updated;
}

Result<QList<Space>> AccountService::listSpaces()
{
    return SpaceRepository(m_db).all();
}

Result<Space> AccountService::spaceByName(const QString &name)
{
    return found(SpaceRepository(m_db).byName(name), [&] {
        return ServiceError{ProblemCode::SpaceNotFound, QStringLiteral("space"),
                            QStringLiteral("No space named '%1'.").arg(name)};
    });
}

Result<Membership> AccountService::addUser(const QString &emailIn, const QString &password, const QString &spaceName,
                                           Role role, const QString &actor, bool *createdUser)
{
    const auto email = normaliseEmail(emailIn);
    if (!email)
        return ServiceError::invalid(ProblemCode::InvalidEmail, QStringLiteral("email"),
                                     QStringLiteral("'%1' is not an e-mail address.").arg(emailIn));
    if (!validSpaceName(spaceName))
        return ServiceError::invalid(ProblemCode::InvalidName, QStringLiteral("space"),
                                     QStringLiteral("A space name is 1 to 64 letters, digits, '.', '_' or '-'."));
    UserRepository users(m_db);
    SpaceRepository spaces(m_db);
    auto userRow = users.byEmail(*email);
    if (!userRow)
        return userRow.error();
    std::optional<User> user = *userRow;
    if (!user) {
        if (auto err = checkPassword(password))
            return *err;
    }
    // Hash before opening the transaction so the write lock is held for milliseconds.
    const QString hash = user ? QString() : hashPassword(password);
    if (!user && hash.isEmpty())
        return ServiceError::database();

    Transaction tx(m_db);
    if (!tx.isOpen())
        return ServiceError::database();
    auto spaceRow = spaces.byName(spaceName);
    if (!spaceRow)
        return spaceRow.error();
    std::optional<Space> space = *spaceRow;
    if (!space) {
        space = Space{randomId(QStringLiteral("spc_")), spaceName, m_config.defaultPlan(), nowMs()};
        if (!spaces.insert(*space)
            || !AuditRepository(m_db).append(space->id, actor, QStringLiteral("space.create"), space->id, space->plan))
            return ServiceError::database();
    }
    if (createdUser)
        *createdUser = !user;
    if (!user) {
        user = User{randomId(QStringLiteral("usr_")), *email, hash, nowMs()};
        if (!users.insert(*user))
            return ServiceError::database();
    }
    if (!users.upsertMembership(space->id, user->id, role)
        || !AuditRepository(m_db).append(space->id, actor, QStringLiteral("membership.set"), user->id, roleName(role))
        || !tx.commit())
        return ServiceError::database();
    return Membership{*space, *user, role};
}

Result<Done> AccountService::setPassword(const QString &emailIn, const QString &password, const QString &actor,
                                         const QString &keepSessionToken)
{
    const auto email = normaliseEmail(emailIn);
    if (!email)
        return ServiceError::invalid(ProblemCode::InvalidEmail, QStringLiteral("email"),
                                     QStringLiteral("'%1' is not an e-mail address.").arg(emailIn));
    if (auto err = checkPassword(password))
        return *err;
    UserRepository users(m_db);
    const auto userRow = users.byEmail(*email);
    if (!userRow)
        return userRow.error();
    const std::optional<User> &user = *userRow;
    if (!user)
        return ServiceError{ProblemCode::UserNotFound, QStringLiteral("email"),
                            QStringLiteral("No user '%1'.").arg(*email)};
    const QString hash = hashPassword(password);
    if (hash.isEmpty())
        return ServiceError::database();
    // Whoever knew the old password may hold a session: a new password ends them all but
    // the caller's own, in the same transaction as the new hash.
    Transaction tx(m_db);
    if (!tx.isOpen() || !users.setPasswordHash(user->id, hash)
        || !SessionRepository(m_db).removeForUser(user->id,
                                                  keepSessionToken.isEmpty() ? QString() : sha256Hex(keepSessionToken))
        || !AuditRepository(m_db).append({}, actor, QStringLiteral("user.passwd"), user->id) || !tx.commit())
        return ServiceError::database();
    return Done{};
}

Result<QList<Membership>> AccountService::listUsers(const QString &spaceName)
{
    QString spaceId;
    if (!spaceName.isEmpty()) {
        auto s = spaceByName(spaceName);
        if (!s)
            return s.error();
        spaceId = s->id;
    }
    return UserRepository(m_db).memberships(spaceId);
}

Result<Done> AccountService::checkLoginAllowed(const QString &email, const QString &clientAddress)
{
    if (const int wait = m_throttle.retryAfterSeconds(throttleKey(email), clientAddress); wait > 0)
        return ServiceError::tooManyAttempts(ProblemCode::TooManyLoginAttempts,
                                             QStringLiteral("Too many failed logins; retry in %1 s.").arg(wait), wait);
    return Done{};
}

Result<LoginResult> AccountService::login(const QString &email, const QString &password, const QString &spaceName,
                                          const QString &clientAddress)
{
    if (auto allowed = checkLoginAllowed(email, clientAddress); !allowed)
        return allowed.error();
    auto result = verifyLogin(email, password, spaceName);
    if (result)
        m_throttle.recordSuccess(throttleKey(email));
    else if (result.error().kind() == ServiceError::Kind::Unauthorized)
        m_throttle.recordFailure(throttleKey(email), clientAddress);
    return result;
}

Result<LoginResult> AccountService::verifyLogin(const QString &emailIn, const QString &password,
                                                const QString &spaceName)
{
    const ServiceError denied{ProblemCode::InvalidCredentials,
                              {},
                              QStringLiteral("The e-mail address or password is wrong.")};
    const QString email = normaliseEmail(emailIn).value_or(QString());
    UserRepository users(m_db);
    std::optional<User> user;
    if (!email.isEmpty()) {
        auto userRow = users.byEmail(email);
        if (!userRow)
            return userRow.error();
        user = *userRow;
    }
    if (!user) {
        verifyPassword(password, dummyPasswordHash());
        return denied;
    }
    if (!verifyPassword(password, user->passwordHash))
        return denied;
    auto memberships = users.membershipsOfUser(user->id);
    if (!memberships)
        return ServiceError::database();
    std::optional<Membership> chosen;
    for (const Membership &m : *memberships) {
        if (spaceName.isEmpty() || m.space.name == spaceName || m.space.id == spaceName) {
            chosen = m;
            break;
        }
    }
    if (!chosen) {
        if (!spaceName.isEmpty())
            return ServiceError{ProblemCode::SpaceNotFound,
                                QStringLiteral("space"),
                                QStringLiteral("You are not a member of space '%1'.").arg(spaceName)};
        return ServiceError{ProblemCode::NoMembership,
                            {},
                            QStringLiteral("This account belongs to no space.")};
    }
    LoginResult result;
    result.token = newSessionToken();
    result.session.sessionId = randomId(QStringLiteral("ses_"));
    result.session.expiresAt = nowMs() + qint64(m_config.sessionLifetimeHours()) * 3600 * 1000;
    result.session.membership = *chosen;
    SessionRepository sessions(m_db);
    sessions.removeExpired(nowMs());
    if (!sessions.insert(result.session.sessionId, sha256Hex(result.token), user->id, chosen->space.id,
                         result.session.expiresAt))
        return ServiceError::database();
    return result;
}

Result<SessionInfo> AccountService::session(const QString &token)
{
    const ServiceError none{ProblemCode::NotLoggedIn,
                            {},
                            QStringLiteral("Log in first: no valid session.")};
    if (token.isEmpty())
        return none;
    return found(SessionRepository(m_db).byTokenHash(sha256Hex(token), nowMs()), [&] { return none; });
}

Result<Done> AccountService::logout(const QString &token)
{
    if (!token.isEmpty() && !SessionRepository(m_db).removeByTokenHash(sha256Hex(token)))
        return ServiceError::database();
    return Done{};
}

} // namespace imprint::service
