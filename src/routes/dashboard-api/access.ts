import type { FastifyRequest } from 'fastify';
import type { Permission } from '../../core/roles.ts';
import type { Session, SessionPolicy } from '../../services/dashboard/sessions.ts';
import type { DashboardUser, Membership } from '../../services/dashboard/users.ts';
import type { Actor } from '../../services/audit.ts';
import type { Config } from '../../config.ts';

/** What the dashboard API's access hook (index.ts) establishes for a request, and helpers to read it. */

export type RouteAccess = 'public' | 'session' | Permission;

export interface DashboardAccess {
  token: string;
  session: Session;
  user: DashboardUser;
  /** Set on project routes. */
  member: Membership | null;
}

export interface DashboardRouteInfo {
  method: string;
  url: string;
  access: RouteAccess;
}

declare module 'fastify' {
  interface FastifyRequest {
    dashboard: DashboardAccess;
  }
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
}

export const DASHBOARD_API_PREFIX = '/dashboard/api';

export const sessionPolicy = (config: Config): SessionPolicy => ({
  idleMs: config.dashboard.sessionIdleMs,
  absoluteMs: config.dashboard.sessionAbsoluteMs,
  maxFailures: config.dashboard.loginMaxFailures,
  throttleWindowMs: config.dashboard.loginThrottleWindowMs,
});

/** The acting dashboard user, as the audit log records them. */
export const actorOfRequest = (request: FastifyRequest): Actor => ({ keyId: null, userId: request.dashboard.user.id, email: request.dashboard.user.email });

/** The member of the project in the path (project routes only). */
export const memberOf = (request: FastifyRequest): Membership => request.dashboard.member!;
