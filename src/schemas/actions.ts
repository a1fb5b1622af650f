import { Type, type Static } from '@sinclair/typebox';

const ActionType = Type.Union(
  ['AUTHOR_BLOCK', 'AUTHOR_BLOCK_TEMP', 'AUTHOR_UNBLOCK', 'AUTHOR_DELETE', 'AUTHOR_REPORT', 'AUTHOR_WARN', 'AUTHOR_CUSTOM', 'ITEM_REJECT', 'ITEM_ALLOW', 'ITEM_CUSTOM'].map((t) =>
    Type.Literal(t),
  ),
);
const QueueBehaviour = Type.Union([Type.Literal('REMOVE'), Type.Literal('ADD'), Type.Literal('NO_CHANGE')]);
const Position = Type.Union([Type.Literal('ALL_QUEUES'), Type.Literal('SOME_QUEUES'), Type.Literal('HIDDEN')]);
const PossibleValue = Type.Object({ value: Type.String({ minLength: 1, maxLength: 500 }) }, { additionalProperties: false });
const Key = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9_.:-]+$' });

const WebhookInput = Type.Object(
  {
    id: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'An existing webhook of this action; omit for a new one' })),
    name: Type.String({ minLength: 1, maxLength: 200 }),
    url: Type.String({ minLength: 1, maxLength: 2000 }),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 2000 }), Type.Null()])),
  },
  { additionalProperties: false },
);

const fields = {
  key: Type.Union([Key, Type.Null()]),
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.Union([Type.String({ maxLength: 2000 }), Type.Null()]),
  type: Type.Union([ActionType, Type.Null()]),
  builtIn: Type.Union([Type.Boolean(), Type.Null()]),
  queueBehaviour: QueueBehaviour,
  filterInQueueIds: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 200 }),
  position: Position,
  possibleValues: Type.Array(PossibleValue, { maxItems: 200 }),
  valueRequired: Type.Boolean(),
  freeText: Type.Boolean(),
  webhooks: Type.Array(WebhookInput, { maxItems: 20, description: 'Replaces the action webhooks: listed ids are kept and updated, others removed' }),
};

export const CreateActionBody = Type.Object(
  {
    name: fields.name,
    key: Type.Optional(fields.key),
    description: Type.Optional(fields.description),
    type: Type.Optional(fields.type),
    builtIn: Type.Optional(fields.builtIn),
    queueBehaviour: Type.Optional(fields.queueBehaviour),
    filterInQueueIds: Type.Optional(fields.filterInQueueIds),
    position: Type.Optional(fields.position),
    possibleValues: Type.Optional(fields.possibleValues),
    valueRequired: Type.Optional(fields.valueRequired),
    freeText: Type.Optional(fields.freeText),
    webhooks: Type.Optional(fields.webhooks),
  },
  { additionalProperties: false },
);
export type CreateActionBody = Static<typeof CreateActionBody>;

export const UpdateActionBody = Type.Partial(Type.Object(fields, { additionalProperties: false }), { additionalProperties: false });
export type UpdateActionBody = Static<typeof UpdateActionBody>;

const actionResponseFields = {
  id: Type.String(),
  key: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  type: Type.Union([ActionType, Type.Null()]),
  builtIn: Type.Union([Type.Boolean(), Type.Null()]),
  queueBehaviour: QueueBehaviour,
  filterInQueueIds: Type.Array(Type.String()),
  position: Position,
  possibleValues: Type.Array(Type.Object({ value: Type.String() })),
  valueRequired: Type.Boolean(),
  freeText: Type.Boolean(),
  createdAt: Type.String({ description: 'ISO 8601' }),
};

/** Create and update answer without webhooks (as the SDK types them). */
export const ActionSchema = Type.Object(actionResponseFields);

export const ActionWithWebhooksSchema = Type.Object({
  ...actionResponseFields,
  webhooks: Type.Array(
    Type.Object({
      id: Type.String(),
      name: Type.String(),
      url: Type.String(),
      description: Type.Union([Type.String(), Type.Null()]),
      moderationActionId: Type.Union([Type.String(), Type.Null()]),
    }),
  ),
});

export const ListActionsQuery = Type.Object({ queueId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })) }, { additionalProperties: false });

const Ids = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 5000, description });

const executeFields = {
  authorIds: Type.Optional(Ids('Authors (external id or id)')),
  contentIds: Type.Optional(Ids('Content items (the contentId you sent, or our id)')),
  value: Type.Optional(Type.String({ maxLength: 5000 })),
  queueId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  comment: Type.Optional(Type.String({ maxLength: 5000, description: 'Kept in the audit log' })),
};

export const ExecuteBody = Type.Object(
  {
    actionKey: Type.String({ minLength: 1, maxLength: 200, description: 'Action id or key' }),
    duration: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000, description: 'Milliseconds, for temporary blocks (AUTHOR_BLOCK_TEMP needs more than 0); other actions ignore it' })),
    ...executeFields,
  },
  { additionalProperties: false },
);
export type ExecuteBody = Static<typeof ExecuteBody>;

export const ExecuteByIdBody = Type.Object(
  { ...executeFields, duration: Type.Optional(Type.Integer({ minimum: 0, maximum: 10 * 365 * 86_400_000 })) },
  { additionalProperties: false },
);
export type ExecuteByIdBody = Static<typeof ExecuteByIdBody>;

export const AuditQuery = Type.Object(
  {
    contentId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    authorId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    queueId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    actionId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,4}$', description: '1 to 500 (default 50)' })),
    before: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'nextCursor of the previous page' })),
  },
  { additionalProperties: false },
);

export const AuditResponse = Type.Object({
  entries: Type.Array(
    Type.Object({
      id: Type.String(),
      kind: Type.String(),
      actorKeyId: Type.Union([Type.String(), Type.Null()]),
      actionId: Type.Union([Type.String(), Type.Null()]),
      actionKey: Type.Union([Type.String(), Type.Null()]),
      actionName: Type.Union([Type.String(), Type.Null()]),
      actionType: Type.Union([Type.String(), Type.Null()]),
      queueId: Type.Union([Type.String(), Type.Null()]),
      contentId: Type.Union([Type.String(), Type.Null()]),
      authorId: Type.Union([Type.String(), Type.Null()]),
      value: Type.Union([Type.String(), Type.Null()]),
      comment: Type.Union([Type.String(), Type.Null()]),
      createdAt: Type.Number(),
    }),
  ),
  nextCursor: Type.Union([Type.String(), Type.Null()]),
});
