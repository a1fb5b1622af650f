import { Type, type Static } from '@sinclair/typebox';
import { CONTENT_TYPES, META_TYPES, PolicyOverride } from './moderate.ts';
import { asWholeNumber, withChoices, withKnownValues, type ChoicesSource } from './rule-fields.ts';

const AUTHOR_STATUSES = ['enabled', 'suspended', 'blocked'] as const;

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

/** Bounds of an author measure; `whole` when the measure only takes whole values (trust levels). */
const Range = (min: number, max: number, options: { title: string; description: string; whole?: boolean; choicesFrom?: ChoicesSource }) => {
  const bound = (title: string) => {
    const number = Type.Number({ minimum: min, maximum: max, title });
    return withChoices(options.whole ? asWholeNumber(number) : number, options.choicesFrom);
  };
  return Type.Object({ min: Type.Optional(bound('At least')), max: Type.Optional(bound('At most')) }, { additionalProperties: false, title: options.title, description: options.description });
};
const Names = (maxItems: number, options: { title: string; description: string }) =>
  Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { minItems: 1, maxItems, ...options });
const OneOf = (values: readonly string[], maxItems: number, options: { title: string; description: string }) =>
  Type.Array(Type.Union(values.map((v) => Type.Literal(v))), { minItems: 1, maxItems, ...options });
/** Names from a known set in the form, any name to the API (see KNOWN_VALUES). */
const KnownNames = (values: readonly string[], maxItems: number, options: { title: string; description: string }) => withKnownValues(Names(maxItems, options), values);
const Probability = (title: string, description?: string) => Type.Number({ minimum: 0, maximum: 1, title, ...(description ? { description } : {}) });

/**
 * A rule's conditions. Titles and descriptions are what the dashboard's rule builder shows
 * (`describeRuleConditions` turns this schema into the configuration catalog), so a condition
 * added here appears in the form too.
 */
export const RuleConditions = Type.Object(
  {
    policies: Type.Optional(
      Type.Array(
        Type.Object(
          {
            id: withChoices(Type.String({ minLength: 1, maxLength: 100, title: 'Policy' }), 'policy'),
            flagged: Type.Optional(Type.Boolean({ title: 'Flagged', description: 'Whether the policy flagged the content; either when absent' })),
            minProbability: Type.Optional(Probability('Score at least')),
            maxProbability: Type.Optional(Probability('Score at most')),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20, title: 'Policies', description: 'Every listed policy ran and matches its flag and score range' },
      ),
    ),
    labels: Type.Optional(
      Type.Array(
        Type.Object(
          {
            policy: Type.Optional(withChoices(Type.String({ minLength: 1, maxLength: 100, title: 'Policy', description: 'Any policy when absent' }), 'policy')),
            label: withChoices(Type.String({ minLength: 1, maxLength: 100, title: 'Label' }), 'label'),
            minProbability: Type.Optional(Probability('Score at least', 'default 0.5')),
          },
          { additionalProperties: false },
        ),
        { minItems: 1, maxItems: 20, title: 'Labels', description: 'Some policy (or the named one) reports every listed label' },
      ),
    ),
    trustLevel: Type.Optional(Range(-1, 4, { title: 'Trust level', description: "The author's trust level is in range", whole: true, choicesFrom: 'trustLevel' })),
    authorStatus: Type.Optional(OneOf(AUTHOR_STATUSES, 3, { title: 'Author status', description: "The author's status is listed" })),
    riskLevel: Type.Optional(Range(0, 100, { title: 'Risk level', description: "The author's risk level is in range" })),
    languages: Type.Optional(Names(50, { title: 'Languages', description: 'The language insight ran and found one of these (ISO 639-1 codes, e.g. en, es)' })),
    metaTypes: Type.Optional(KnownNames(META_TYPES, 10, { title: 'Meta types', description: "The submission's metaType is listed" })),
    contentTypes: Type.Optional(KnownNames(CONTENT_TYPES, 10, { title: 'Content types', description: "The submission's content type is listed" })),
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
