import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { allows, type Permission } from '../../core/roles.ts';
import { csrfMatches, CSRF_HEADER, readCookie, SESSION_COOKIE, sessionOf } from '../../services/dashboard/sessions.ts';
import { getUser, membership } from '../../services/dashboard/users.ts';
import { DASHBOARD_API_PREFIX, sessionPolicy, type DashboardAccess, type DashboardRouteInfo, type RouteAccess } from './access.ts';
import { sessionRoutes } from './session.ts';
import { moderationRoutes } from './moderation.ts';
import { authorRoutes } from './authors.ts';
import { settingsRoutes } from './settings.ts';
import { configureRoutes } from './configure.ts';
import { playgroundRoutes } from './playground.ts';
import { developerRoutes } from './developers.ts';
import { overviewRoutes } from './overview.ts';

export { DASHBOARD_API_PREFIX, type DashboardRouteInfo } from './access.ts';

/**
 * The dashboard's JSON API (docs/dashboard-api.md): opened by a session cookie only, never by
 * an API key. Every route names what it needs in `config.access`; one hook checks it, in this
 * order: session (401), CSRF token on state-changing calls (403), membership of the project in
 * the path (404), one-time password changed (403), the role's permission (403).
 */

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const PERMISSION_WORDS: Record<Permission, string> = {
  read: 'read this project',
  moderate: 'moderate (act on items and authors)',
  configure: 'change configuration (admin or developer only)',
  manage_members: 'manage members (admin only)',
};

export async function dashboardApiRoutes(app: FastifyInstance, routes: DashboardRouteInfo[]): Promise<void> {
  const { db, config } = app.deps;
  const policy = sessionPolicy(config);
  app.decorateRequest('dashboard', null as unknown as DashboardAccess);

  app.addHook('onRoute', (route: RouteOptions) => {
    const access = (route.config as { access?: RouteAccess } | undefined)?.access;
    if (access === undefined) throw new Error(`Dashboard route ${String(route.method)} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') routes.push({ method, url: route.url, access });
  });

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    void reply.header('cache-control', 'no-store');
    void reply.header('x-content-type-options', 'nosniff');
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;
    const token = readCookie(request.headers.cookie, SESSION_COOKIE);
    if (token === null) {
      throw new ApiError(
        'UNAUTHORIZED',
        request.headers.authorization ? 'The dashboard API needs a dashboard session; API keys open /v1 only' : 'Not signed in: sign in to the dashboard first',
      );
    }
    const session = await sessionOf(db, token, policy);
    if (!session) throw new ApiError('UNAUTHORIZED', 'Your session has ended (signed out, expired or revoked): sign in again');
    if (!SAFE_METHODS.has(request.method) && !csrfMatches(token, request.headers[CSRF_HEADER] as string | undefined)) {
      throw new ApiError('FORBIDDEN', `Missing or wrong ${CSRF_HEADER} header: send the csrfToken of GET ${DASHBOARD_API_PREFIX}/session`);
    }
    const user = await getUser(db, session.userId).catch(() => null);
    if (!user) throw new ApiError('UNAUTHORIZED', 'Your account no longer exists');
    request.dashboard = { token, session, user, member: null };
    if (access === 'session') return;
    const projectId = (request.params as { projectId?: string }).projectId;
    const member = projectId === undefined ? null : await membership(db, user.id, projectId);
    if (!member) throw notFound(`Project "${projectId ?? ''}"`);
    if (user.mustChangePassword) throw new ApiError('FORBIDDEN', 'Change your one-time password first (POST /dashboard/api/session/password)');
    if (!allows(member.role, access)) throw new ApiError('FORBIDDEN', `Your role (${member.role}) may not ${PERMISSION_WORDS[access]}`);
    request.dashboard.member = member;
  });

  await app.register(sessionRoutes);
  await app.register(moderationRoutes);
  await app.register(authorRoutes);
  await app.register(settingsRoutes);
  await app.register(configureRoutes);
  await app.register(playgroundRoutes);
  await app.register(developerRoutes);
  await app.register(overviewRoutes);
}
