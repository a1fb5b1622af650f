import { Type, type Static } from '@sinclair/typebox';
import { Id } from './common.ts';

/** Request schemas of the dashboard API (docs/dashboard-api.md). */

const Email = Type.String({ minLength: 3, maxLength: 320 });
const Role = Type.Union([Type.Literal('admin'), Type.Literal('developer'), Type.Literal('moderator')]);
const Comment = Type.String({ maxLength: 5000 });

export const SignInBody = Type.Object({ email: Email, password: Type.String({ minLength: 1, maxLength: 1000 }) }, { additionalProperties: false });
export const ChangePasswordBody = Type.Object(
  { currentPassword: Type.String({ minLength: 1, maxLength: 1000 }), newPassword: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);

export const ProjectParams = Type.Object({ projectId: Id });
export const QueueParams = Type.Object({ projectId: Id, queueId: Id });
export const QueueItemParams = Type.Object({ projectId: Id, queueId: Id, itemId: Id });
export const ItemParams = Type.Object({ projectId: Id, itemId: Id });
export const AuthorParams = Type.Object({ projectId: Id, authorId: Id });
export const MemberParams = Type.Object({ projectId: Id, userId: Id });

export const CommentBody = Type.Object({ comment: Type.Optional(Comment) }, { additionalProperties: false });
export const ClaimBody = Type.Object({ force: Type.Optional(Type.Boolean()) }, { additionalProperties: false });
export const ItemDetailQuery = Type.Object({ queueId: Type.Optional(Id) }, { additionalProperties: false });

const Ids = Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 1000 });
export const ExecuteBody = Type.Object(
  {
    actionId: Id,
    queueId: Type.Optional(Id),
    contentIds: Type.Optional(Ids),
    authorIds: Type.Optional(Ids),
    value: Type.Optional(Type.String({ maxLength: 1000 })),
    comment: Type.Optional(Comment),
    durationMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_153_600_000_000 })),
    allowResolved: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type ExecuteBody = Static<typeof ExecuteBody>;

export const BlockBody = Type.Object(
  { reason: Type.Optional(Type.String({ maxLength: 1000 })), durationMs: Type.Optional(Type.Integer({ minimum: 1, maximum: 3_153_600_000_000 })) },
  { additionalProperties: false },
);
export const UnblockBody = Type.Object({ reason: Type.Optional(Type.String({ maxLength: 1000 })) }, { additionalProperties: false });
export const TrustLevelBody = Type.Object(
  { level: Type.Union([Type.Integer({ minimum: -1, maximum: 4 }), Type.Null()]), reason: Type.String({ minLength: 1, maxLength: 1000 }) },
  { additionalProperties: false },
);

const DateText = Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 date or milliseconds since the epoch' });
export const AuditQuery = Type.Object(
  {
    moderator: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
    kind: Type.Optional(
      Type.Union(['action', 'resolve', 'unresolve', 'trust_level', 'member', 'config', 'block_expired'].map((k) => Type.Literal(k))),
    ),
    actionType: Type.Optional(Id),
    authorId: Type.Optional(Id),
    contentId: Type.Optional(Id),
    queueId: Type.Optional(Id),
    from: Type.Optional(DateText),
    to: Type.Optional(DateText),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$' })),
    before: Type.Optional(Id),
  },
  { additionalProperties: false },
);
export type AuditQuery = Static<typeof AuditQuery>;

export const CustomDataSettingsBody = Type.Object(
  {
    enabled: Type.Boolean(),
    endpointUrl: Type.Union([Type.String({ maxLength: 2048 }), Type.Null()]),
    headers: Type.Array(
      Type.Object({ name: Type.String({ minLength: 1, maxLength: 100 }), value: Type.Optional(Type.String({ maxLength: 4000 })) }, { additionalProperties: false }),
      { maxItems: 20 },
    ),
  },
  { additionalProperties: false },
);

const QueueIds = Type.Union([Type.Array(Id, { maxItems: 500 }), Type.Null()]);
export const AddMemberBody = Type.Object(
  { email: Email, name: Type.Optional(Type.String({ maxLength: 200 })), role: Role, queueIds: Type.Optional(QueueIds) },
  { additionalProperties: false },
);
export const UpdateMemberBody = Type.Object({ role: Type.Optional(Role), queueIds: Type.Optional(QueueIds) }, { additionalProperties: false, minProperties: 1 });

// ---------------------------------------------------------------- configuration (issue #29)
// Bodies of the configuration routes are the /v1 schemas themselves (channel, queue, wordlist,
// action, moderate); only the dashboard's own shapes are here.

export const ChannelParams = Type.Object({ projectId: Id, channelId: Id });
export const WordlistParams = Type.Object({ projectId: Id, wordlistId: Id });
export const ActionParams = Type.Object({ projectId: Id, actionId: Id });

export const WordSearchQuery = Type.Object(
  {
    contains: Type.Optional(Type.String({ maxLength: 200, description: 'Words containing this text' })),
    after: Type.Optional(Type.String({ maxLength: 200, description: 'nextAfter of the previous page' })),
    limit: Type.Optional(Type.String({ pattern: '^[0-9]{1,3}$', description: '1 to 500 (default 100)' })),
  },
  { additionalProperties: false },
);

export const WordsImportBody = Type.Object(
  {
    csv: Type.String({ maxLength: 10_000_000, description: 'CSV text: one word per row, first column; a `word` header row is skipped' }),
    replace: Type.Optional(Type.Boolean({ description: 'Replace every word of the list (default: add to it)' })),
  },
  { additionalProperties: false },
);

export const ActionOrderBody = Type.Object(
  { order: Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { minItems: 1, maxItems: 1000, description: 'Every action id, in the new order' }) },
  { additionalProperties: false },
);
