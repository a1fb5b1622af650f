import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { errorResponses } from '../schemas/common.ts';
import { getProject } from '../services/projects.ts';

/**
 * The hosted API's account and key-check endpoints (SDK `account.list`,
 * deprecated `auth.retrieve` / `auth.create`). A self-hosted service has no
 * plan and no quota: the plan reads "self-hosted" and both quota figures are
 * the largest safe integer, so a client that checks its remaining quota
 * before sending never stops.
 */
const UNLIMITED = Number.MAX_SAFE_INTEGER;
const tags = ['account'];

const AccountResponse = Type.Object({
  id: Type.String({ description: 'The project of the API key (a self-hosted service has no separate account)' }),
  paid_plan_name: Type.String(),
  remaining_quota: Type.Number(),
  text_api_quota: Type.Number(),
  current_project: Type.Object({ id: Type.String(), name: Type.String() }),
});
const AuthStatus = Type.Object({ status: Type.String(), message: Type.String() });
const AuthCreateBody = Type.Object({}, { additionalProperties: false });

export async function accountRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const db = app.deps.db;

  app.get(
    '/account',
    { schema: { summary: 'The account of the API key (SDK account.list)', tags, response: { 200: AccountResponse, ...errorResponses() } } },
    async (request) => {
      const project = await getProject(db, request.principal.projectId);
      const quota = app.deps.rateLimiter.quota(project.id);
      return { id: project.id, paid_plan_name: 'self-hosted', remaining_quota: quota?.remaining ?? UNLIMITED, text_api_quota: quota?.limit ?? UNLIMITED, current_project: { id: project.id, name: project.name } };
    },
  );

  app.get(
    '/auth',
    { schema: { summary: 'Check the API key (deprecated SDK auth.retrieve)', tags, deprecated: true, response: { 200: AuthStatus, ...errorResponses() } } },
    async () => ({ status: 'ok', message: 'Authenticated' }),
  );

  app.post(
    '/auth',
    {
      schema: {
        summary: 'Check the API key (deprecated SDK auth.create)',
        tags,
        deprecated: true,
        body: Type.Optional(AuthCreateBody),
        response: { 200: Type.Object({ ...AuthStatus.properties, project: Type.String({ description: 'Name of the project' }) }), ...errorResponses() },
      },
    },
    async (request) => ({ status: 'ok', message: 'Authenticated', project: (await getProject(db, request.principal.projectId)).name }),
  );
}
