import { Type } from '@sinclair/typebox';
import { WEBHOOK_EVENT_TYPES } from '../services/webhooks.ts';

const EventType = Type.Union(WEBHOOK_EVENT_TYPES.map((t) => Type.Literal(t)));

const fields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  // No whitespace or control characters: URL parsers drop CR/LF silently, so the stored URL would differ from the one called.
  url: Type.String({ minLength: 1, maxLength: 2000, pattern: '^[^\\s\\u0000-\\u001f\\u007f]+$', description: 'https URL of the receiver' }),
  description: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
  events: Type.Array(EventType, { maxItems: 20, description: 'Event types to receive; empty or absent: all' }),
  enabled: Type.Boolean(),
};

export const CreateWebhookBody = Type.Object(
  {
    name: fields.name,
    url: fields.url,
    description: Type.Optional(fields.description),
    events: Type.Optional(fields.events),
    enabled: Type.Optional(fields.enabled),
  },
  { additionalProperties: false },
);

export const UpdateWebhookBody = Type.Partial(Type.Object(fields, { additionalProperties: false }), { additionalProperties: false, minProperties: 1 });

export const WebhookSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  enabled: Type.Boolean(),
  moderationActionId: Type.Union([Type.String(), Type.Null()]),
  createdAt: Type.Number(),
  updatedAt: Type.Number(),
});

export const DeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 500 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

export const DeliverySchema = Type.Object({
  id: Type.String(),
  webhookId: Type.String(),
  eventId: Type.String(),
  eventType: Type.String(),
  attempt: Type.Number(),
  manual: Type.Boolean(),
  statusCode: Type.Union([Type.Number(), Type.Null()]),
  success: Type.Boolean(),
  error: Type.Union([Type.String(), Type.Null()]),
  durationMs: Type.Number(),
  createdAt: Type.Number(),
});

export const SecretResponse = Type.Object({
  secret: Type.String(),
  previousSecretValidUntil: Type.Union([Type.Number(), Type.Null()]),
});
