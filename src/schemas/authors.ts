import { Type, type Static } from '@sinclair/typebox';

export const MAX_METADATA_KEYS = 25;
export const MAX_AUTHORS_PAGE_SIZE = 100;
export const DEFAULT_AUTHORS_PAGE_SIZE = 20;

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);
const WebUrl = Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 });

const Scalar = Type.Union([Type.String({ maxLength: 10_000 }), Type.Number(), Type.Boolean(), Type.Null()]);
const ScalarList = Type.Array(Scalar, { maxItems: 100 });
// One level of nesting: a value may be an object, but that object's values may not.
const NestedObject = Type.Record(Type.String({ maxLength: 200 }), Type.Union([Scalar, ScalarList]), { maxProperties: MAX_METADATA_KEYS });
const VerifiedFlag = Type.Optional(Type.Union([Type.Boolean(), Type.Null()]));

export const AuthorMetadata = Type.Object(
  {
    email_verified: VerifiedFlag,
    phone_verified: VerifiedFlag,
    identity_verified: VerifiedFlag,
    is_paying_customer: VerifiedFlag,
  },
  {
    additionalProperties: Type.Union([Scalar, ScalarList, NestedObject]),
    maxProperties: MAX_METADATA_KEYS,
    description: `At most ${MAX_METADATA_KEYS} keys and one level of nesting. The four built-in keys are booleans and feed trust and risk.`,
  },
);

const writableFields = {
  name: Type.Optional(Nullable(Type.String({ maxLength: 500 }))),
  email: Type.Optional(Nullable(Type.String({ format: 'email', maxLength: 320 }))),
  profile_picture: Type.Optional(Nullable(WebUrl)),
  external_link: Type.Optional(Nullable(WebUrl)),
  metadata: Type.Optional(AuthorMetadata),
  manual_trust_level: Type.Optional(
    Type.Union([Type.Integer({ minimum: -1, maximum: 4 }), Type.Null()], { description: '-1..4 overrides the automatic level; null resets it' }),
  ),
  first_seen: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
  last_seen: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000 })),
};

export const CreateAuthorBody = Type.Object(
  { external_id: Type.String({ minLength: 1, maxLength: 200 }), ...writableFields },
  { additionalProperties: false },
);
export type CreateAuthorBody = Static<typeof CreateAuthorBody>;

export const UpdateAuthorBody = Type.Object(writableFields, { additionalProperties: false });
export type UpdateAuthorBody = Static<typeof UpdateAuthorBody>;

const RiskSignal = Type.Object({
  id: Type.String(),
  value: Type.Union([Type.Number(), Type.Boolean(), Type.String(), Type.Null()]),
  contribution: Type.Number({ description: 'Points this signal added to risk_level' }),
});

export const AuthorSchema = Type.Object(
  {
    id: Type.String(),
    external_id: Type.String(),
    name: Type.Union([Type.String(), Type.Null()]),
    email: Type.Union([Type.String(), Type.Null()]),
    profile_picture: Type.Union([Type.String(), Type.Null()]),
    external_link: Type.Union([Type.String(), Type.Null()]),
    first_seen: Type.Number(),
    last_seen: Type.Number(),
    last_incident: Type.Union([Type.Number(), Type.Null()]),
    status: Type.Union([Type.Literal('enabled'), Type.Literal('suspended'), Type.Literal('blocked')]),
    trust_level: Type.Object({ level: Type.Integer(), manual: Type.Boolean() }),
    block: Type.Union([
      Type.Object({ until: Type.Union([Type.Number(), Type.Null()]), reason: Type.Union([Type.String(), Type.Null()]) }),
      Type.Null(),
    ]),
    risk_evaluation: Type.Union([
      Type.Object({ risk_level: Type.Number({ minimum: 0, maximum: 100 }), signals: Type.Array(RiskSignal) }),
      Type.Null(),
    ]),
    metrics: Type.Object({
      total_content: Type.Integer(),
      flagged_content: Type.Integer(),
      average_sentiment: Type.Union([Type.Number(), Type.Null()]),
      violation_count: Type.Integer(),
      report_count: Type.Integer(),
      flagged_content_ratio: Type.Number(),
    }),
    metadata: Type.Record(Type.String(), Type.Unknown()),
    content_types: Type.Array(Type.String(), { description: 'Content types this author has submitted' }),
  },
  { $id: 'Author' },
);

export const SORT_BY_KEYS = [
  'trustLevel',
  'violationCount',
  'reportCount',
  'memberSince',
  'lastActive',
  'contentCount',
  'flaggedContentRatio',
  'averageSentiment',
] as const;

/** Query strings arrive as strings and are not coerced: numbers are parsed by the route. */
export const ListAuthorsQuery = Type.Object(
  {
    pageSize: Type.Optional(Type.String({ description: `1..${MAX_AUTHORS_PAGE_SIZE}, default ${DEFAULT_AUTHORS_PAGE_SIZE}` })),
    pageNumber: Type.Optional(Type.String({ description: '1 or more, default 1' })),
    sortBy: Type.Optional(Type.Union(SORT_BY_KEYS.map((k) => Type.Literal(k)))),
    sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    memberSinceDate: Type.Optional(
      Type.String({ maxLength: 100, description: 'first_seen filter: an ISO 8601 date or time (on or after), or a range FROM..TO (either side may be empty)' }),
    ),
    lastActiveDate: Type.Optional(Type.String({ maxLength: 100, description: 'last_seen filter, same format as memberSinceDate' })),
    contentTypes: Type.Optional(
      Type.String({ maxLength: 100, description: 'Comma-separated content types (text, image, video, audio, object, url): authors who submitted any of them' }),
    ),
  },
  { additionalProperties: false },
);
export type ListAuthorsQuery = Static<typeof ListAuthorsQuery>;

export const AuthorListSchema = Type.Object({
  authors: Type.Array(AuthorSchema),
  pagination: Type.Object({
    total: Type.Integer(),
    pageSize: Type.Integer(),
    pageNumber: Type.Integer(),
    hasNextPage: Type.Boolean(),
    hasPreviousPage: Type.Boolean(),
  }),
});
