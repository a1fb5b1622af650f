import type { FastifyInstance } from 'fastify';

export async function openapiRoutes(app: FastifyInstance): Promise<void> {
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}
