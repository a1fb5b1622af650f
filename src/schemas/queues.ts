import { Type, type Static } from '@sinclair/typebox';

const DateString = Type.String({ minLength: 1, maxLength: 40, description: 'ISO 8601 date or milliseconds since the epoch' });
const IdList = (description: string) => Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 500, description });

export const QueueFilterSchema = Type.Object(
  {
    afterDate: Type.Optional(DateString),
    beforeDate: Type.Optional(DateString),
    authorID: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Author external id or id' })),
    conversationIds: Type.Optional(Type.Array(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()]), { maxItems: 500, description: 'null selects items without a conversation' })),
    filteredActionIds: Type.Optional(IdList('Items on which one of these actions (id or key) was taken')),
    filteredChannelIds: Type.Optional(IdList('Channel ids or keys')),
    filterLabels: Type.Optional(
      Type.Array(
        Type.Object(
          {
            label: Type.String({ minLength: 1, maxLength: 100 }),
            type: Type.Union([Type.Literal('FLAGGED'), Type.Literal('NOT_FLAGGED'), Type.Literal('THRESHOLDS')]),
            minThreshold: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
            maxThreshold: Type.Optional(Type.Union([Type.Number({ minimum: 0, maximum: 1 }), Type.Null()])),
          },
          { additionalProperties: false },
        ),
        { maxItems: 50 },
      ),
    ),
    labels: Type.Optional(IdList('Items with one of these labels flagged')),
    recommendationActions: Type.Optional(Type.Array(Type.Union([Type.Literal('review'), Type.Literal('allow'), Type.Literal('reject')]), { maxItems: 3 })),
    showChecked: Type.Optional(Type.Boolean({ description: 'List resolved items too by default' })),
    flagged: Type.Optional(Type.Union([Type.Literal('FLAGGED'), Type.Literal('NOT_FLAGGED'), Type.Literal('ALL')], { description: 'Default ALL' })),
    showShadowFlagged: Type.Optional(Type.Boolean({ description: 'Include items a policy scored high without flagging (default true)' })),
  },
  { additionalProperties: false },
);

const QueueFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  description: Type.String({ maxLength: 2000 }),
  filter: QueueFilterSchema,
};

export const CreateQueueBody = Type.Object(
  { name: QueueFields.name, description: Type.Optional(QueueFields.description), filter: Type.Optional(QueueFields.filter) },
  { additionalProperties: false },
);
export type CreateQueueBody = Static<typeof CreateQueueBody>;

export const UpdateQueueBody = Type.Partial(Type.Object(QueueFields, { additionalProperties: false }), { additionalProperties: false, minProperties: 1 });
export type UpdateQueueBody = Static<typeof UpdateQueueBody>;

export const QueueSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  description: Type.String(),
  filter: QueueFilterSchema,
  resolvedItemsCount: Type.Number(),
  totalItemsCount: Type.Number(),
  unresolvedItemsCount: Type.Number(),
});

export const QueueResponse = Type.Object({ queue: QueueSchema });

const Digits = (description: string) => Type.String({ pattern: '^[0-9]{1,6}$', description });
const CommaList = (description: string) => Type.String({ maxLength: 10_000, description: `${description} (comma-separated)` });

export const ItemListQuery = Type.Object(
  {
    afterDate: Type.Optional(DateString),
    beforeDate: Type.Optional(DateString),
    authorId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    conversationIds: Type.Optional(CommaList('Conversation ids')),
    filteredActionIds: Type.Optional(CommaList('Action ids or keys taken on the item')),
    includeResolved: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')])),
    labels: Type.Optional(CommaList('Labels flagged on the item')),
    pageNumber: Type.Optional(Digits('Page to fetch, from 1')),
    pageSize: Type.Optional(Digits('Items per page, 1 to 100 (default 20)')),
    sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    sortField: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('severity'), Type.Literal('reviewedAt')])),
  },
  { additionalProperties: false },
);
export type ItemListQuery = Static<typeof ItemListQuery>;

export const StatsQuery = Type.Object({ withinDays: Type.Optional(Digits('Days to analyse, 1 to 365 (default 30)')) }, { additionalProperties: false });

const ItemAction = Type.Object({
  id: Type.String(),
  name: Type.String(),
  timestamp: Type.Number(),
  comment: Type.Optional(Type.String()),
  reviewer: Type.Optional(Type.String()),
  value: Type.Optional(Type.String()),
});

export const ItemListResponse = Type.Object({
  items: Type.Array(
    Type.Object({
      id: Type.String(),
      content: Type.String(),
      flagged: Type.Boolean(),
      labels: Type.Array(Type.Object({ label: Type.String(), score: Type.Number(), flagged: Type.Boolean() })),
      status: Type.Union([Type.Literal('pending'), Type.Literal('resolved')]),
      timestamp: Type.Number(),
      actions: Type.Array(ItemAction),
      authorId: Type.Optional(Type.String()),
      contentType: Type.Optional(Type.String()),
      conversationId: Type.Optional(Type.String()),
      language: Type.Optional(Type.String()),
      severity: Type.Number(),
      recommendation: Type.String(),
      resolvedAt: Type.Optional(Type.Number()),
    }),
  ),
  pagination: Type.Object({
    currentPage: Type.Number(),
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean(),
    totalItems: Type.Number(),
    totalPages: Type.Number(),
  }),
});

export const ResolveBody = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 5000 })) }, { additionalProperties: false });

export const ResolveResponse = Type.Object({ success: Type.Boolean(), resolvedAt: Type.String(), comment: Type.Optional(Type.String()) });
export const UnresolveResponse = Type.Object({ success: Type.Boolean(), status: Type.String(), unresolvedAt: Type.String() });

export const StatsResponse = Type.Object({
  actionStats: Type.Array(Type.Object({ actionId: Type.String(), actionName: Type.String(), count: Type.Number(), percentageOfTotal: Type.Number() })),
  reviewStats: Type.Object({ averageTimeToReview: Type.Number(), totalPending: Type.Number(), totalReviewed: Type.Number() }),
  topReviewers: Type.Array(
    Type.Object({
      averageTimePerReview: Type.Number(),
      name: Type.String(),
      reviewCount: Type.Number(),
      topActions: Type.Array(Type.Object({ actionId: Type.String(), actionName: Type.String(), count: Type.Number() })),
      userId: Type.String(),
    }),
  ),
  trends: Type.Object({
    dailyReviewCounts: Type.Array(Type.Object({ count: Type.Number(), date: Type.String() })),
    flaggedContentTrends: Type.Array(Type.Object({ label: Type.String(), trend: Type.Number() })),
  }),
});
