import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';

const Status = Type.Object({ status: Type.String() });

export async function healthRoutes(app: FastifyInstance): Promise<void> {
  app.get('/healthz', { schema: { hide: true, response: { 200: Status } } }, async () => ({ status: 'ok' }));

  /** Ready when the store answers. */
  app.get('/readyz', { schema: { hide: true, response: { 200: Status, 503: Status } } }, async (_request, reply) => {
    try {
      await app.deps.db.query('SELECT 1');
      return { status: 'ready' };
    } catch {
      return reply.status(503).send({ status: 'store unreachable' });
    }
  });
}
