import { Type, type Static } from '@sinclair/typebox';
import { PolicyOverride } from './moderate.ts';

const Triage = Type.Object(
  {
    review: Type.Number({ minimum: 0, maximum: 1, description: 'Severity at or above which content is sent to review' }),
    reject: Type.Number({ minimum: 0, maximum: 1, description: 'Severity at or above which content is rejected' }),
  },
  { additionalProperties: false },
);

const TriagePresetName = Type.Union([Type.Literal('lenient'), Type.Literal('balanced'), Type.Literal('strict')]);

/** Thresholds as numbers, or a named preset (lenient 0.7/0.95, balanced 0.5/0.9, strict 0.3/0.7). */
const TriageInput = Type.Union([
  Triage,
  Type.Object({ preset: TriagePresetName }, { additionalProperties: false }),
]);

const Range = (min: number, max: number) =>
  Type.Object(
    { min: Type.Optional(Type.Number({ minimum: min, maximum: max })), max: Type.Optional(Type.Number({ minimum: min, maximum: max })) },
    { additionalProperties: false },
  );
const Names = (maxItems: number) => Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems });

const RuleConditions = Type.Object(
  {
    policies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: Type.String({ minLength: 1, maxLength: 100 }),
            flagged: Type.Optional(Type.Boolean()),
            minProbability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
            maxProbability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20 },
      ),
    ),
    labels: Type.Optional(
      Type.Array(
        Type.Object(
          {
            policy: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
            label: Type.String({ minLength: 1, maxLength: 100 }),
            minProbability: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20 },
      ),
    ),
    trustLevel: Type.Optional(Range(-1, 4)),
    authorStatus: Type.Optional(
      Type.Array(Type.Union([Type.Literal('enabled'), Type.Literal('suspended'), Type.Literal('blocked')]), { minItems: 1, maxItems: 3 }),
    ),
    riskLevel: Type.Optional(Range(0, 100)),
    languages: Type.Optional(Names(50)),
    metaTypes: Type.Optional(Names(10)),
    contentTypes: Type.Optional(Names(10)),
  },
  { additionalProperties: false, description: 'All conditions present must hold' },
);

export const RecommendationRuleSchema = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 200 })),
    when: RuleConditions,
    action: Type.Union([Type.Literal('allow'), Type.Literal('review'), Type.Literal('reject')]),
  },
  { additionalProperties: false },
);

const recommendationFields = {
  alwaysReview: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'Policies whose flag always sends content to review' }),
  alwaysReject: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'Policies whose flag always rejects content' }),
  rules: Type.Array(RecommendationRuleSchema, { maxItems: 50, description: 'Ordered; the first matching rule decides the recommendation' }),
  dryRun: Type.Boolean({ description: 'Answer every submission as not flagged and allow; the stored item keeps the real result' }),
  borderlineRescore: Type.Union(
    [
      Type.Object(
        {
          low: Type.Number({ minimum: 0, maximum: 1, description: 'Lowest score re-judged (inclusive)' }),
          high: Type.Number({ minimum: 0, maximum: 1, description: 'Highest score re-judged (inclusive)' }),
          policies: Type.Optional(
            Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 50, uniqueItems: true, description: 'Built-in classifiers to re-score; absent = all' }),
          ),
          outsideLanguages: Type.Optional(
            Type.Boolean({ description: "Also re-judge, whatever the score, text outside the built-in classifiers' languages (en, es, pt, fr, de)" }),
          ),
          nonEnglish: Type.Optional(Type.Boolean({ description: 'Also re-judge, whatever the score, text in Spanish, Portuguese, French or German' })),
        },
        { additionalProperties: false },
      ),
      Type.Null(),
    ],
    { description: 'Scores of built-in classifiers inside [low, high] are re-judged by the model backend (MODEL_BACKEND_URL); null turns it off' },
  ),
};

const UnanalysedMedia = Type.Union([Type.Literal('review'), Type.Literal('allow')], {
  description:
    "Recommendation for content holding media (image, video, audio, url) that could not be analysed (fetch failed, kind not supported, no backend): 'review' (default) or 'allow'",
});

const channelFields = {
  name: Type.String({ minLength: 1, maxLength: 200 }),
  policies: Type.Array(PolicyOverride, { maxItems: 100, description: 'Policies the channel runs, with their settings' }),
  insights: Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 20 }),
  unicodeNormalization: Type.Boolean({ description: 'Rewrite disguised text before other policies run (default true)' }),
  triage: TriageInput,
  unanalysedMedia: UnanalysedMedia,
  ...recommendationFields,
};

export const ChannelKey = Type.String({ minLength: 1, maxLength: 100, pattern: '^[a-zA-Z0-9_.-]+$' });

export const CreateChannelBody = Type.Object(
  {
    key: ChannelKey,
    name: channelFields.name,
    policies: Type.Optional(channelFields.policies),
    insights: Type.Optional(channelFields.insights),
    unicodeNormalization: Type.Optional(channelFields.unicodeNormalization),
    triage: Type.Optional(TriageInput),
    alwaysReview: Type.Optional(recommendationFields.alwaysReview),
    alwaysReject: Type.Optional(recommendationFields.alwaysReject),
    rules: Type.Optional(recommendationFields.rules),
    dryRun: Type.Optional(recommendationFields.dryRun),
    borderlineRescore: Type.Optional(recommendationFields.borderlineRescore),
    unanalysedMedia: Type.Optional(UnanalysedMedia),
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
    triage: Type.Object({ review: Type.Number(), reject: Type.Number(), preset: Type.Optional(TriagePresetName) }),
    alwaysReview: Type.Array(Type.String()),
    alwaysReject: Type.Array(Type.String()),
    rules: Type.Array(RecommendationRuleSchema),
    dryRun: Type.Boolean(),
    borderlineRescore: recommendationFields.borderlineRescore,
    unanalysedMedia: UnanalysedMedia,
    createdAt: Type.Number(),
    updatedAt: Type.Number(),
  },
  { $id: 'Channel' },
);
export type ChannelView = Static<typeof ChannelSchema>;
