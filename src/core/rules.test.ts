import { test } from 'node:test';
import assert from 'node:assert/strict';
import { matchingRule, ruleHolds, type RuleFacts } from './rules.ts';

const facts = (overrides: Partial<RuleFacts> = {}): RuleFacts => ({
  policies: [
    { id: 'toxicity', type: 'classifier', probability: 0.7, flagged: true },
    { id: 'unicode_spoofing', type: 'classifier', probability: 1, flagged: false, labels: [{ id: 'zalgo', probability: 1, flagged: false }] },
  ],
  author: { status: 'enabled', trustLevel: 1, riskLevel: 40 },
  contentType: 'text',
  metaType: 'comment',
  language: 'en',
  ...overrides,
});

const table: Array<[string, Parameters<typeof ruleHolds>[0], boolean, Partial<RuleFacts>?]> = [
  ['empty conditions always hold', {}, true],
  ['policy flagged', { policies: [{ id: 'toxicity', flagged: true }] }, true],
  ['policy not flagged', { policies: [{ id: 'toxicity', flagged: false }] }, false],
  ['policy probability inside range', { policies: [{ id: 'toxicity', minProbability: 0.6, maxProbability: 0.8 }] }, true],
  ['policy probability below range', { policies: [{ id: 'toxicity', minProbability: 0.8 }] }, false],
  ['policy that did not run', { policies: [{ id: 'spam' }] }, false],
  ['label reported even in shadow mode (probability counts)', { labels: [{ policy: 'unicode_spoofing', label: 'zalgo' }] }, true],
  ['label of another policy', { labels: [{ policy: 'toxicity', label: 'zalgo' }] }, false],
  ['label with any policy', { labels: [{ label: 'zalgo' }] }, true],
  ['absent label', { labels: [{ label: 'confusable_word' }] }, false],
  ['trust level range', { trustLevel: { min: 0, max: 1 } }, true],
  ['trust level above range', { trustLevel: { max: 0 } }, false],
  ['trust level without author', { trustLevel: { min: -1 } }, false, { author: null }],
  ['author status', { authorStatus: ['enabled'] }, true],
  ['author status other', { authorStatus: ['blocked', 'suspended'] }, false],
  ['risk level', { riskLevel: { min: 40 } }, true],
  ['risk level too low', { riskLevel: { min: 41 } }, false],
  ['language', { languages: ['en', 'de'] }, true],
  ['language unknown', { languages: ['en'] }, false, { language: null }],
  ['metaType', { metaTypes: ['comment'] }, true],
  ['metaType missing', { metaTypes: ['comment'] }, false, { metaType: null }],
  ['content type', { contentTypes: ['object'] }, false],
  ['all conditions together', { policies: [{ id: 'toxicity', flagged: true }], languages: ['en'], contentTypes: ['text'], trustLevel: { max: 2 } }, true],
  ['one failing condition fails the rule', { policies: [{ id: 'toxicity', flagged: true }], languages: ['fr'] }, false],
];

for (const [name, when, expected, overrides] of table) {
  test(`rule condition: ${name}`, () => assert.equal(ruleHolds(when, facts(overrides)), expected));
}

test('the first matching rule is returned', () => {
  const rules = [
    { name: 'a', when: { languages: ['fr'] }, action: 'reject' as const },
    { name: 'b', when: { contentTypes: ['text'] }, action: 'review' as const },
    { name: 'c', when: {}, action: 'allow' as const },
  ];
  assert.equal(matchingRule(rules, facts())?.name, 'b');
  assert.equal(matchingRule([], facts()), undefined);
});
