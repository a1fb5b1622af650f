import type { AppDeps } from '../app.ts';
import { exponentialBackoff, type TopicHandler } from './outbox.ts';
import { AUTHOR_BLOCK_EXPIRED_TOPIC, authorPayloads, expireAuthorBlock } from '../services/authors.ts';
import { DELIVER_TOPIC, emitEvents, NEW_QUEUE_ITEM_TOPIC, webhookDeliveryHandler } from '../services/webhooks.ts';
import { newQueueItemHandler } from '../services/queues.ts';
import { writeAuditEntries } from '../services/audit.ts';

/**
 * Every outbox topic and the handler that delivers it. Domains add their
 * topics here (webhook deliveries, block expiries, ...).
 */
export function outboxHandlers(deps: AppDeps): Map<string, TopicHandler> {
  const handlers = new Map<string, TopicHandler>();
  handlers.set(AUTHOR_BLOCK_EXPIRED_TOPIC, {
    // A suspension ends: enable the author unless the block changed meanwhile.
    async handle(event) {
      const authorId = String(event.payload.authorId);
      await deps.db.transaction(async (tx) => {
        if (!(await expireAuthorBlock(tx, event.projectId, authorId, Number(event.payload.until)))) return;
        const author = (await authorPayloads(tx, event.projectId, [authorId])).get(authorId) ?? null;
        // An automatic action: in the audit log without an actor.
        await writeAuditEntries(tx, event.projectId, [
          { kind: 'block_expired', actorKeyId: null, authorId, authorExternalId: author?.external_id ?? null, value: new Date(Number(event.payload.until)).toISOString() },
        ]);
        // Stable id: a second run of this job finds the event written and sends nothing twice.
        await emitEvents(tx, event.projectId, [{ type: 'AUTHOR_UNBLOCKED', id: `evt_unblock_${event.id}`, data: { author, reason: 'block_expired' } }]);
      });
    },
    maxAttempts: 20,
    backoffMs: exponentialBackoff(1_000, 300_000),
  });
  handlers.set(DELIVER_TOPIC, webhookDeliveryHandler(deps.db, deps.config));
  handlers.set(NEW_QUEUE_ITEM_TOPIC, newQueueItemHandler(deps.db, 20, exponentialBackoff(1_000, 300_000)));
  return handlers;
}
