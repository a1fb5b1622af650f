import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { badRequest } from '../../errors.ts';
import { ProjectParams } from '../../schemas/dashboard.ts';
import { OverviewQuerySchema } from '../../schemas/dashboard-developers.ts';
import { DAY_MS, MAX_HOURLY_PERIOD_MS, MAX_PERIOD_MS, overview } from '../../services/dashboard/overview.ts';
import { memberOf } from './access.ts';

const hide = true;

/** The Overview page's figures (configure: it shows every queue and reviewer of the project). */
export async function overviewRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.deps;

  app.get('/projects/:projectId/overview', { config: { access: 'configure' }, schema: { hide, params: ProjectParams, querystring: OverviewQuerySchema } }, async (request) => {
    const projectId = memberOf(request).projectId;
    const to = request.query.to === undefined ? Date.now() : Number(request.query.to);
    const from = request.query.from === undefined ? to - 7 * DAY_MS : Number(request.query.from);
    if (from >= to) throw badRequest('The period must end after it starts', [{ message: 'from must be before to', path: '/querystring/from' }]);
    if (to - from > MAX_PERIOD_MS) throw badRequest('The period is longer than 400 days', [{ message: 'period too long', path: '/querystring/from' }]);
    const bucket = request.query.bucket ?? (to - from <= 2 * DAY_MS ? 'hour' : 'day');
    if (bucket === 'hour' && to - from > MAX_HOURLY_PERIOD_MS) {
      throw badRequest('Hourly points are for periods up to 14 days: choose day', [{ message: 'too many hourly points', path: '/querystring/bucket' }]);
    }
    const channelId = request.query.channelId ?? null;
    const { rows: channels } = await db.query<{ id: string; key: string; name: string }>('SELECT id, key, name FROM channels WHERE project_id = $1 ORDER BY is_default DESC, name, id', [projectId]);
    if (channelId !== null && !channels.some((c) => c.id === channelId)) {
      throw badRequest(`Channel "${channelId}" not found`, [{ message: 'unknown channel', path: '/querystring/channelId' }]);
    }
    return { ...(await overview(db, projectId, { from, to, bucket, channelId })), channels };
  });
}
