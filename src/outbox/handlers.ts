import type { AppDeps } from '../app.ts';
import { exponentialBackoff, type TopicHandler } from './outbox.ts';
import { AUTHOR_BLOCK_EXPIRED_TOPIC, expireAuthorBlock } from '../services/authors.ts';

/**
 * Every outbox topic and the handler that delivers it. Domains add their
 * topics here (webhook deliveries, block expiries, ...).
 */
export function outboxHandlers(deps: AppDeps): Map<string, TopicHandler> {
  const handlers = new Map<string, TopicHandler>();
  handlers.set(AUTHOR_BLOCK_EXPIRED_TOPIC, {
    // A suspension ends: enable the author unless the block changed meanwhile.
    async handle(event) {
      await expireAuthorBlock(deps.db, event.projectId, String(event.payload.authorId), Number(event.payload.until));
    },
    maxAttempts: 20,
    backoffMs: exponentialBackoff(1_000, 300_000),
  });
  return handlers;
}
