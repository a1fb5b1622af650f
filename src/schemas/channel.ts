import { Type, type Static } from '@sinclair/typebox';
import { PolicyOverride } from './moderate.ts';

const Triage = Type.Object(
  {
    review: Type.Number({ minimum: 0, maximum: 1, description: 'Severity at or above which content is sent to review' }),
    reject: Type.Number({ minimum: 0, maximum: 1, description: 'Severity at or above which content is rejected' }),
  },
  { additionalProperties: false },
);

const channelFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  policies: Type.Array(PolicyOverride, { maxItems: 100, description: 'Policies the channel runs, with their settings' }),
  insights: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 }),
  unicodeNormalization: Type.Boolean({ description: 'Rewrite disguised text before other policies run (default true)' }),
  triage: Triage,
};

export const ChannelKey = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9_.-]+$' });

export const CreateChannelBody = Type.Object(
  {
    key: ChannelKey,
    name: channelFields.name,
    policies: Type.Optional(channelFields.policies),
    insights: Type.Optional(channelFields.insights),
    unicodeNormalization: Type.Optional(channelFields.unicodeNormalization),
    triage: Type.Optional(Triage),
  },
  { additionalProperties: false },
);
export type CreateChannelBody = Static<typeof CreateChannelBody>;

export const UpdateChannelBody = Type.Partial(
  Type.Object({ key: ChannelKey, ...channelFields }, { additionalProperties: false }),
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateChannelBody = Static<typeof UpdateChannelBody>;

export const ChannelSchema = Type.Object(
  {
    id: Type.String(),
    key: Type.String(),
    name: Type.String(),
    isDefault: Type.Boolean(),
    policies: Type.Array(Type.Record(Type.String(), Type.Unknown())),
    insights: Type.Array(Type.String()),
    unicodeNormalization: Type.Boolean(),
    triage: Triage,
    createdAt: Type.Number(),
    updatedAt: Type.Number(),
  },
  { $id: 'Channel' },
);
export type ChannelView = Static<typeof ChannelSchema>;
