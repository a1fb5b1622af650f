import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyResult } from './policy.ts';
import {
  DEFAULT_TRIAGE,
  dryRunView,
  guardUnanalysedMedia,
  recommend,
  TRIAGE_PRESETS,
  type Recommendation,
  type RecommendationInput,
  type RecommendationSettings,
} from './recommendation.ts';
import type { RecommendationRule } from './rules.ts';

const policy = (id: string, probability: number, flagged = probability >= 0.5, labels?: PolicyResult['labels']): PolicyResult => ({
  id,
  type: 'classifier',
  probability,
  flagged,
  ...(labels ? { labels } : {}),
});

const input = (severity: number, overrides: Partial<RecommendationInput> = {}): RecommendationInput => ({
  evaluation: { flagged: severity >= 0.5, flag_probability: severity, severity_score: severity },
  policies: [],
  author: null,
  contentType: 'text',
  metaType: null,
  language: null,
  ...overrides,
});

const author = (trustLevel: number, status: 'enabled' | 'suspended' | 'blocked' = 'enabled', riskLevel = 0) => ({ status, trustLevel, riskLevel });
const settings = (overrides: Partial<RecommendationSettings> = {}): RecommendationSettings => ({
  triage: DEFAULT_TRIAGE,
  alwaysReview: [],
  alwaysReject: [],
  rules: [],
  ...overrides,
});

const spoofing = (...fired: string[]) =>
  policy(
    'unicode_spoofing',
    fired.length > 0 ? 1 : 0,
    fired.length > 0,
    ['mixed_script', 'confusable_word', 'invisible', 'zalgo', 'illegal'].map((id) => ({ id, probability: fired.includes(id) ? 1 : 0, flagged: fired.includes(id) })),
  );

const spoofingRules: RecommendationRule[] = [
  { name: 'lookalike words', when: { labels: [{ policy: 'unicode_spoofing', label: 'confusable_word' }] }, action: 'reject' },
  { name: 'zalgo text', when: { labels: [{ policy: 'unicode_spoofing', label: 'zalgo' }] }, action: 'review' },
];

const cases: Array<[string, RecommendationInput, RecommendationSettings, Recommendation]> = [
  ['clean content is allowed', input(0.1), settings(), { action: 'allow', reason_codes: [] }],
  ['severity at the review threshold', input(0.5), settings(), { action: 'review', reason_codes: ['severity_review'] }],
  ['severity at the reject threshold', input(0.9), settings(), { action: 'reject', reason_codes: ['severity_reject'] }],
  ['strict preset reviews earlier', input(0.35), settings({ triage: TRIAGE_PRESETS.strict }), { action: 'review', reason_codes: ['severity_review'] }],
  ['lenient preset lets 0.6 through', input(0.6), settings({ triage: TRIAGE_PRESETS.lenient }), { action: 'allow', reason_codes: [] }],
  ['blocked author is rejected', input(0, { author: author(0, 'blocked') }), settings(), { action: 'reject', reason_codes: ['author_block'] }],
  ['suspended author is rejected', input(0, { author: author(3, 'suspended') }), settings(), { action: 'reject', reason_codes: ['author_block'] }],
  [
    'author block wins over an allowing rule',
    input(0, { author: author(4, 'blocked') }),
    settings({ rules: [{ when: {}, action: 'allow' }] }),
    { action: 'reject', reason_codes: ['author_block'] },
  ],
  ['trusted author is allowed in the review band', input(0.6, { author: author(3) }), settings(), { action: 'allow', reason_codes: ['trusted_allow'] }],
  ['trusted author is still rejected above reject', input(0.95, { author: author(4) }), settings(), { action: 'reject', reason_codes: ['severity_reject'] }],
  ['member (level 2) is not trusted_allow', input(0.6, { author: author(2) }), settings(), { action: 'review', reason_codes: ['severity_review'] }],
  ['untrusted author: review band becomes reject', input(0.6, { author: author(-1) }), settings(), { action: 'reject', reason_codes: ['untrusted_severity'] }],
  ['untrusted author: lower band becomes review', input(0.3, { author: author(-1) }), settings(), { action: 'review', reason_codes: ['untrusted_severity'] }],
  ['untrusted author: clean content stays allowed', input(0.1, { author: author(-1) }), settings(), { action: 'allow', reason_codes: [] }],
  ['untrusted author above reject: plain severity', input(0.95, { author: author(-1) }), settings(), { action: 'reject', reason_codes: ['severity_reject'] }],
  [
    'always reject: a flagged listed policy rejects',
    input(0.2, { policies: [policy('spam', 0.6)] }),
    settings({ alwaysReject: ['spam'] }),
    { action: 'reject', reason_codes: ['severity_reject'] },
  ],
  [
    'always reject: an unflagged listed policy does nothing',
    input(0.2, { policies: [policy('spam', 0.3)] }),
    settings({ alwaysReject: ['spam'] }),
    { action: 'allow', reason_codes: [] },
  ],
  [
    'always review: a flagged listed policy reviews',
    input(0.2, { policies: [policy('pii', 1)] }),
    settings({ alwaysReview: ['pii'] }),
    { action: 'review', reason_codes: ['severity_review'] },
  ],
  [
    'always review is not overruled by trusted_allow',
    input(0.6, { policies: [policy('pii', 1)], author: author(3) }),
    settings({ alwaysReview: ['pii'] }),
    { action: 'review', reason_codes: ['severity_review'] },
  ],
  [
    'always review does not soften a reject',
    input(0.95, { policies: [policy('pii', 1)] }),
    settings({ alwaysReview: ['pii'] }),
    { action: 'reject', reason_codes: ['severity_reject'] },
  ],
  [
    'rule on confusable_word rejects',
    input(0.4, { policies: [spoofing('confusable_word', 'mixed_script')] }),
    settings({ rules: spoofingRules }),
    { action: 'reject', reason_codes: ['rule_match'] },
  ],
  ['rule on zalgo reviews', input(0.4, { policies: [spoofing('zalgo')] }), settings({ rules: spoofingRules }), { action: 'review', reason_codes: ['rule_match'] }],
  [
    'no rule matches: severity decides',
    input(0.4, { policies: [spoofing('invisible')] }),
    settings({ rules: spoofingRules }),
    { action: 'allow', reason_codes: [] },
  ],
  [
    'first matching rule decides',
    input(0.4, { policies: [spoofing('zalgo', 'confusable_word')] }),
    settings({ rules: [spoofingRules[1]!, spoofingRules[0]!] }),
    { action: 'review', reason_codes: ['rule_match'] },
  ],
  [
    'a rule may allow what severity would reject',
    input(0.95, { policies: [policy('sexual', 0.95)], metaType: 'profile' }),
    settings({ rules: [{ when: { policies: [{ id: 'sexual', minProbability: 0.9 }], metaTypes: ['profile'] }, action: 'allow' }] }),
    { action: 'allow', reason_codes: ['rule_match'] },
  ],
  [
    'rule wins over always reject',
    input(0.2, { policies: [policy('spam', 0.6)], contentType: 'object' }),
    settings({ alwaysReject: ['spam'], rules: [{ when: { contentTypes: ['object'] }, action: 'review' }] }),
    { action: 'review', reason_codes: ['rule_match'] },
  ],
];

for (const [name, given, configured, expected] of cases) {
  test(`recommend: ${name}`, () => {
    assert.deepEqual(recommend(given, configured), expected);
  });
}

test('every reason code is produced by some case', () => {
  const produced = new Set(cases.flatMap(([, , , r]) => r.reason_codes));
  produced.add(dryRunView({ flagged: true, flag_probability: 1, severity_score: 1 }).recommendation.reason_codes[0]!);
  assert.deepEqual(
    [...produced].sort(),
    ['author_block', 'dry_run', 'rule_match', 'severity_reject', 'severity_review', 'trusted_allow', 'untrusted_severity'],
  );
});

test('dry run answers not flagged and allow, keeping the scores', () => {
  const real = { flagged: true, flag_probability: 0.97, severity_score: 0.95 };
  const view = dryRunView(real);
  assert.deepEqual(view.recommendation, { action: 'allow', reason_codes: ['dry_run'] });
  assert.deepEqual(view.evaluation, { flagged: false, flag_probability: 0.97, severity_score: 0.95 });
  assert.equal(real.flagged, true, 'the real evaluation is not changed');
});

test('the evaluation-only form still triages by severity', () => {
  const evaluation = { flagged: true, flag_probability: 0.6, severity_score: 0.6 };
  assert.deepEqual(recommend(evaluation), { action: 'review', reason_codes: ['severity_review'] });
  assert.deepEqual(recommend(evaluation, { review: 0.3, reject: 0.6 }), { action: 'reject', reason_codes: ['severity_reject'] });
});

describe('guardUnanalysedMedia', () => {
  const allow: Recommendation = { action: 'allow', reason_codes: [] };
  test('an allow with unanalysed media becomes review', () => {
    assert.deepEqual(guardUnanalysedMedia(allow, 1, 'review'), { action: 'review', reason_codes: ['media_not_analysed'] });
    assert.deepEqual(guardUnanalysedMedia({ action: 'allow', reason_codes: ['trusted_allow'] }, 2, 'review'), { action: 'review', reason_codes: ['media_not_analysed'] });
  });
  test('nothing unanalysed, the channel allowing it, a rule allow, or a stricter action: unchanged', () => {
    assert.equal(guardUnanalysedMedia(allow, 0, 'review'), allow);
    assert.equal(guardUnanalysedMedia(allow, 1, 'allow'), allow);
    const rule: Recommendation = { action: 'allow', reason_codes: ['rule_match'] };
    assert.equal(guardUnanalysedMedia(rule, 1, 'review'), rule);
    const reject: Recommendation = { action: 'reject', reason_codes: ['severity_reject'] };
    assert.equal(guardUnanalysedMedia(reject, 1, 'review'), reject);
  });
});
