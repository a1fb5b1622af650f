import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { ModerateBody } from '../../schemas/moderate.ts';
import { ProjectParams } from '../../schemas/dashboard.ts';
import { moderate, type ReviewDetails } from '../../pipeline/moderate.ts';
import { findPolicy, resultIdOf } from '../../policies/registry.ts';
import { resolveChannel, toChannelView } from '../../services/channels.ts';
import { memberOf } from './access.ts';

/**
 * The playground: a text or object run through the real pipeline of a channel with doNotStore,
 * answered with everything a stored item would keep for review (the real verdict under dry run,
 * Unicode findings, shadow flags) and each policy's threshold, so the page can draw scores
 * against thresholds. Nothing is stored, no author is created, no webhook is sent.
 */
export async function playgroundRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = app;

  app.post(
    '/projects/:projectId/playground',
    { config: { access: 'configure' }, schema: { hide: true, params: ProjectParams, body: ModerateBody } },
    async (request) => {
      const projectId = memberOf(request).projectId;
      const channel = await resolveChannel(deps.db, projectId, request.body.channel);
      let details: ReviewDetails | null = null;
      const result = await moderate(deps, projectId, { ...request.body, doNotStore: true }, (d) => (details = d));
      const review = details! as ReviewDetails;
      const thresholds: Record<string, number> = {};
      for (const settings of review.policySettings) {
        thresholds[resultIdOf(settings)] = settings.threshold ?? findPolicy(settings.id)?.policy.defaultThreshold ?? 0.5;
      }
      return {
        result,
        review: {
          evaluation: review.evaluation,
          recommendation: review.recommendation,
          unicode: review.unicode,
          shadowFlagged: review.shadowFlagged,
          dryRun: review.dryRun,
        },
        thresholds,
        channel: toChannelView(channel),
      };
    },
  );
}
