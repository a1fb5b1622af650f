import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ModerateBody, ModerateResponse } from '../schemas/moderate.ts';
import { errorResponses } from '../schemas/common.ts';
import { moderate } from '../pipeline/moderate.ts';

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
      // The schema documents the response; one JSON.stringify writes it. fast-json-stringify re-validates
      // every anyOf branch (modified, author, policy data) at run time, which costs more than it saves.
      serializerCompiler: () => (body: unknown) => JSON.stringify(body),
    },
    (request) => {
      // Requests between their start and their answer's departure: under load, short texts also go to the text workers.
      const workers = app.deps.textWorkers;
      if (!workers) return moderate(app.deps, request.principal.projectId, request.body).then(counted).then(atEndOfTurn);
      workers.active = (workers.active ?? 0) + 1;
      return moderate(app.deps, request.principal.projectId, request.body)
        .then(counted)
        .then(atEndOfTurn)
        .finally(() => void workers.active!--);
    },
  );

  const { metrics } = app.deps;
  function counted(response: ModerateResponse): ModerateResponse {
    metrics.verdicts.inc({ action: response.recommendation.action });
    for (const policy of response.policies) if (policy.flagged) metrics.policyFlags.inc({ policy: policy.id });
    if (response.errors) for (const error of response.errors) metrics.policyErrors.inc({ id: error.id });
    return response;
  }
}

/**
 * Resolves with the response in the check phase of this event-loop turn, after every request that
 * arrived with it has been read and evaluated. Written at once, the responses of one turn leave as a
 * burst: the client side wakes once for them instead of once per response, and the server runs each
 * stage for all of them in a row. Under load (50 connections, doNotStore) this doubled the requests
 * served per second and halved the server's CPU per request (docs/benchmarks.md, runs P1–P3); a lone
 * request waits for nothing, as no other work is pending in its turn.
 */
function atEndOfTurn<T>(response: T): Promise<T> {
  return new Promise((resolve) => setImmediate(resolve, response));
}
