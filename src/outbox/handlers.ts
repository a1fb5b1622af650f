import type { AppDeps } from '../app.ts';
import type { TopicHandler } from './outbox.ts';

/**
 * Every outbox topic and the handler that delivers it. Domains add their
 * topics here (webhook deliveries, block expiries, ...).
 */
export function outboxHandlers(deps: AppDeps): Map<string, TopicHandler> {
  void deps;
  const handlers = new Map<string, TopicHandler>();
  return handlers;
}
