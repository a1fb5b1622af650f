import { Type, type Static } from '@sinclair/typebox';
import { TaggedUnion } from './common.ts';

export const MAX_TEXT_LENGTH = 100_000;
export const MAX_OBJECT_FIELDS = 100;

/** Inline media (base64 `data:` URLs) is bounded by the request body limit (BODY_LIMIT_BYTES) and the kind's byte cap. */
export const MAX_DATA_URL_LENGTH = 100 * 1_048_576;

const MediaUrl = Type.Union(
  [
    Type.String({ format: 'uri', pattern: '^https?://', maxLength: 4096 }),
    Type.String({ pattern: '^data:[a-zA-Z]+/[-+.a-zA-Z0-9]+(;[-a-zA-Z0-9]+=[-a-zA-Z0-9.]+)*;base64,', maxLength: MAX_DATA_URL_LENGTH }),
  ],
  { description: 'An http(s) URL the server fetches, or the media inline as a base64 data: URL' },
);

export const TextItem = Type.Object(
  { type: Type.Literal('text'), text: Type.String({ maxLength: MAX_TEXT_LENGTH }) },
  { additionalProperties: false },
);
export const ImageItem = Type.Object({ type: Type.Literal('image'), url: MediaUrl }, { additionalProperties: false });
export const VideoItem = Type.Object({ type: Type.Literal('video'), url: MediaUrl }, { additionalProperties: false });
export const AudioItem = Type.Object({ type: Type.Literal('audio'), url: MediaUrl }, { additionalProperties: false });
export const UrlItem = Type.Object({ type: Type.Literal('url'), url: MediaUrl }, { additionalProperties: false });

const FieldItem = TaggedUnion([TextItem, ImageItem, VideoItem, AudioItem, UrlItem]);

export const ObjectItem = Type.Object(
  {
    type: Type.Literal('object'),
    data: Type.Record(Type.String({ minLength: 1, maxLength: 200 }), FieldItem, {
      minProperties: 1,
      maxProperties: MAX_OBJECT_FIELDS,
    }),
  },
  { additionalProperties: false },
);

export const ContentItem = TaggedUnion([TextItem, ImageItem, VideoItem, AudioItem, UrlItem, ObjectItem]);

/** The `type` of each content item, read from the item schemas (what rules' `contentTypes` may name). */
export const CONTENT_TYPES = [TextItem, ImageItem, VideoItem, AudioItem, UrlItem, ObjectItem].map((item) => item.properties.type.const);

export const META_TYPES = ['profile', 'message', 'post', 'comment', 'event', 'product', 'review', 'other'] as const;

/**
 * One entry of the per-request `policies` override. Each policy validates its
 * own extra settings (entities, signals, guideline text) after this schema.
 */
export const PolicyOverride = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100 }),
    flag: Type.Optional(Type.Boolean()),
    threshold: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  },
  { additionalProperties: true },
);

export const ModerateBody = Type.Object(
  {
    content: ContentItem,
    channel: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    contentId: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    metaType: Type.Optional(Type.Union(META_TYPES.map((m) => Type.Literal(m)))),
    authorId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    conversationId: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    doNotStore: Type.Optional(Type.Boolean()),
    timestamp: Type.Optional(Type.Integer({ minimum: 0, maximum: 8_640_000_000_000_000, description: 'Milliseconds since the epoch (stored as bigint: whole numbers only)' })),
    policies: Type.Optional(Type.Array(PolicyOverride, { maxItems: 100 })),
  },
  { additionalProperties: false, $id: 'ModerateRequest' },
);
export type ModerateBody = Static<typeof ModerateBody>;
export type ContentItem = Static<typeof ContentItem>;

const Label = Type.Object({ id: Type.String(), probability: Type.Number(), flagged: Type.Boolean() });

const PolicyResultSchema = Type.Object({
  id: Type.String(),
  type: Type.Union([Type.Literal('classifier'), Type.Literal('entity_matcher')]),
  probability: Type.Number(),
  flagged: Type.Boolean(),
  flagged_fields: Type.Optional(Type.Array(Type.String())),
  labels: Type.Optional(Type.Array(Label)),
  matches: Type.Optional(
    Type.Array(Type.Object({ match: Type.String(), probability: Type.Number(), span: Type.Array(Type.Integer()) })),
  ),
  data: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
});

export const AuthorSummary = Type.Object({
  id: Type.String(),
  external_id: Type.String(),
  status: Type.String(),
  block: Type.Union([
    Type.Object({ until: Type.Union([Type.Number(), Type.Null()]), reason: Type.Union([Type.String(), Type.Null()]) }),
    Type.Null(),
  ]),
  trust_level: Type.Object({ level: Type.Number(), manual: Type.Boolean() }),
});

export const ModerateResponse = Type.Object(
  {
    content: Type.Object({
      id: Type.String(),
      masked: Type.Boolean(),
      modified: Type.Optional(Type.Union([Type.String(), Type.Record(Type.String(), Type.Unknown()), Type.Null()])),
    }),
    author: Type.Union([AuthorSummary, Type.Null()]),
    evaluation: Type.Object({
      flagged: Type.Boolean(),
      flag_probability: Type.Number(),
      severity_score: Type.Number(),
      unicode_spoofed: Type.Optional(Type.Boolean()),
    }),
    recommendation: Type.Object({ action: Type.String(), reason_codes: Type.Array(Type.String()) }),
    policies: Type.Array(PolicyResultSchema),
    insights: Type.Array(
      Type.Object({
        id: Type.String(),
        type: Type.Literal('insight'),
        probability: Type.Number(),
        value: Type.Union([Type.String(), Type.Null()]),
      }),
    ),
    meta: Type.Object({
      status: Type.Union([Type.Literal('success'), Type.Literal('partial_success')]),
      timestamp: Type.Number(),
      channel_key: Type.String(),
      usage: Type.Number(),
      processing_time: Type.String(),
    }),
    errors: Type.Optional(Type.Array(Type.Object({ id: Type.String(), message: Type.String() }))),
  },
  { $id: 'ModerateResult' },
);
export type ModerateResponse = Static<typeof ModerateResponse>;
