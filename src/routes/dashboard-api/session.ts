import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ApiError, badRequest } from '../../errors.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { ChangePasswordBody, SignInBody } from '../../schemas/dashboard.ts';
import {
  clearedSessionCookie,
  csrfTokenFor,
  revokeSession,
  sessionCookie,
  signIn,
  throttledFor,
  type Session,
} from '../../services/dashboard/sessions.ts';
import { findUserByEmail, membershipsOf, setPassword, type DashboardUser } from '../../services/dashboard/users.ts';
import { sessionPolicy } from './access.ts';

const hide = true;

export async function sessionRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.deps;
  const policy = sessionPolicy(config);
  const secure = (request: FastifyRequest) => request.protocol === 'https' || (config.publicUrl?.startsWith('https://') ?? false);

  const view = async (user: DashboardUser, session: Session, token: string) => ({
    user: { id: user.id, email: user.email, name: user.name, mustChangePassword: user.mustChangePassword },
    memberships: await membershipsOf(db, user.id),
    csrfToken: csrfTokenFor(token),
    session: { id: session.id, createdAt: session.createdAt, expiresAt: session.expiresAt, idleExpiresAt: session.idleExpiresAt },
  });

  app.post('/session', { config: { access: 'public' }, schema: { hide, body: SignInBody } }, async (request, reply) => {
    const userAgent = request.headers['user-agent'];
    const signed = await signIn(db, request.body, policy, { userAgent: typeof userAgent === 'string' ? userAgent : null, ip: request.ip });
    void reply.header('set-cookie', sessionCookie(signed.token, { secure: secure(request), maxAgeSeconds: Math.floor(policy.absoluteMs / 1000) }));
    return view(signed.user, signed.session, signed.token);
  });

  app.get('/session', { config: { access: 'session' }, schema: { hide } }, async (request) => {
    const { user, session, token } = request.dashboard;
    return view(user, session, token);
  });

  app.delete('/session', { config: { access: 'session' }, schema: { hide } }, async (request, reply) => {
    const revoked = await revokeSession(db, request.dashboard.session.id);
    if (!revoked) throw new ApiError('UNAUTHORIZED', 'The session had already ended');
    void reply.header('set-cookie', clearedSessionCookie(secure(request)));
    return { signedOut: true };
  });

  app.post('/session/password', { config: { access: 'session' }, schema: { hide, body: ChangePasswordBody } }, async (request) => {
    const { user, session } = request.dashboard;
    // A stolen session must not be a way around sign-in throttling.
    const wait = await throttledFor(db, user.email, policy);
    if (wait > 0) throw new ApiError('TOO_MANY_REQUESTS', `Too many wrong passwords for this account; try again in ${Math.ceil(wait / 60)} minute(s)`, [], { 'retry-after': String(wait) });
    const stored = await findUserByEmail(db, user.email);
    if (!stored || !(await verifyPassword(request.body.currentPassword, stored.passwordHash))) {
      await db.query('INSERT INTO dashboard_login_failures (email, failed_at) VALUES ($1, $2)', [user.email, Date.now()]);
      throw badRequest('The current password is wrong', [{ message: 'wrong password', path: '/currentPassword' }]);
    }
    if (request.body.newPassword === request.body.currentPassword) {
      throw badRequest('The new password must differ from the current one', [{ message: 'unchanged', path: '/newPassword' }]);
    }
    await setPassword(db, user.id, request.body.newPassword, { oneTime: false, keepSessionId: session.id });
    return { changed: true };
  });
}
