import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ModerateBody, ModerateResponse } from '../schemas/moderate.ts';
import { errorResponses } from '../schemas/common.ts';
import { moderate } from '../pipeline/moderate.ts';
import { moderateResponseJson } from '../pipeline/response-json.ts';

export async function moderateRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.post(
    '/moderate',
    {
      schema: {
        summary: 'Moderate content',
        description: 'Evaluates text, image or object content against the policies of a channel, stores it unless doNotStore is set, and returns the verdict.',
        tags: ['content'],
        body: ModerateBody,
        response: { 200: ModerateResponse, ...errorResponses(404, 413) },
      },
      // The schema documents the response; JSON.stringify writes it, reusing the policies text the
      // pipeline wrote once for the response and the stored item. fast-json-stringify re-validates
      // every anyOf branch (modified, author, policy data) at run time, which costs more than it saves.
      serializerCompiler: () => moderateResponseJson,
    },
    (request) => moderate(app.deps, request.principal.projectId, request.body),
  );
}
