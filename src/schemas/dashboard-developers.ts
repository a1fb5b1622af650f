import { Type } from '@sinclair/typebox';
import { Id } from './common.ts';

/** Request schemas of the dashboard's webhooks and API-key pages (docs/dashboard-api.md). */

export const WebhookParams = Type.Object({ projectId: Id, webhookId: Id });
export const DeliveryParams = Type.Object({ projectId: Id, deliveryId: Id });
export const ApiKeyParams = Type.Object({ projectId: Id, keyId: Id });

export const DashboardDeliveriesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200 })),
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
