import { Type } from '@sinclair/typebox';
import { Id } from './common.ts';

/** Request schemas of the dashboard's webhooks and API-key pages (docs/dashboard-api.md). */

export const WebhookParams = Type.Object({ projectId: Id, webhookId: Id });
export const DeliveryParams = Type.Object({ projectId: Id, deliveryId: Id });
export const ApiKeyParams = Type.Object({ projectId: Id, keyId: Id });

export const DashboardDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 200 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { additionalProperties: false },
);

/** Rotation is irreversible for receivers still on the old secret: the caller confirms it in the body. */
export const RotateSecretBody = Type.Object({ confirm: Type.Literal(true, { description: 'must be true' }) }, { additionalProperties: false });

export const CreateApiKeyBody = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 200, pattern: '\\S', description: 'what the key is for, e.g. "production backend"' }) },
  { additionalProperties: false },
);

export const OverviewQuerySchema = Type.Object(
  {
    from: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'start of the period (ms since 1970); default: 7 days before `to`' })),
    to: Type.Optional(Type.String({ pattern: '^[0-9]{1,15}$', description: 'end of the period (ms, exclusive); default: now' })),
    bucket: Type.Optional(Type.Union([Type.Literal('hour'), Type.Literal('day')], { description: 'point per hour or per day (UTC); default: hour up to 2 days, day beyond' })),
    channelId: Type.Optional(Id),
  },
  { additionalProperties: false },
);
