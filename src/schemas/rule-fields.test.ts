import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from '@sinclair/typebox';
import { RuleConditions } from './channel.ts';
import { CONTENT_TYPES, META_TYPES } from './moderate.ts';
import { describeRuleConditions, withChoices } from './rule-fields.ts';

const fields = describeRuleConditions(RuleConditions);
const field = (key: string) => fields.find((f) => f.key === key)!;

test('every condition of the rule schema is described, in the schema order, with its title and description', () => {
  const properties = RuleConditions.properties as Record<string, { title?: string; description?: string }>;
  assert.deepEqual(
    fields.map((f) => f.key),
    Object.keys(properties),
  );
  for (const f of fields) {
    assert.ok(properties[f.key]!.title, `${f.key} has a title in the schema`);
    assert.equal(f.title, properties[f.key]!.title);
    assert.equal(f.description, properties[f.key]!.description);
    assert.ok(f.description.length > 0, `${f.key} says when it holds`);
  }
});

test('each condition is described by its shape: entries, ranges, known sets, free names', () => {
  assert.deepEqual(
    Object.fromEntries(fields.map((f) => [f.key, f.kind])),
    { policies: 'entries', labels: 'entries', trustLevel: 'range', authorStatus: 'choices', riskLevel: 'range', languages: 'names', metaTypes: 'choices', contentTypes: 'choices' },
  );
  const policies = field('policies');
  assert.ok(policies.kind === 'entries');
  assert.deepEqual(
    policies.properties.map((p) => [p.key, p.kind, p.required, p.kind === 'string' ? p.choicesFrom : undefined]),
    [
      ['id', 'string', true, 'policy'],
      ['flagged', 'boolean', false, undefined],
      ['minProbability', 'number', false, undefined],
      ['maxProbability', 'number', false, undefined],
    ],
  );
  const labels = field('labels');
  assert.ok(labels.kind === 'entries');
  assert.deepEqual(
    labels.properties.map((p) => [p.key, p.required, p.kind === 'string' ? p.choicesFrom : p.kind]),
    [
      ['policy', false, 'policy'],
      ['label', true, 'label'],
      ['minProbability', false, 'number'],
    ],
  );
  assert.deepEqual(field('trustLevel'), { key: 'trustLevel', title: 'Trust level', description: "The author's trust level is in range", kind: 'range', min: -1, max: 4, integer: true, choicesFrom: 'trustLevel' });
  const risk = field('riskLevel');
  assert.ok(risk.kind === 'range' && risk.min === 0 && risk.max === 100 && !risk.integer && risk.choicesFrom === undefined);
  const values = (key: string) => {
    const f = field(key);
    return f.kind === 'choices' ? f.values : null;
  };
  assert.deepEqual(values('authorStatus'), ['enabled', 'suspended', 'blocked']);
  assert.deepEqual(values('metaTypes'), [...META_TYPES]);
  assert.deepEqual(values('contentTypes'), [...CONTENT_TYPES]);
  assert.deepEqual(CONTENT_TYPES, ['text', 'image', 'video', 'audio', 'url', 'object']);
});

test('a condition added to the schema is described without another list; a shape no control fits is refused', () => {
  const extended = Type.Object({
    ...RuleConditions.properties,
    mood: Type.Optional(Type.Array(Type.Union([Type.Literal('calm'), Type.Literal('angry')]), { minItems: 1, maxItems: 2, title: 'Mood', description: 'The mood is listed' })),
    karma: Type.Optional(Type.Object({ min: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })), max: Type.Optional(Type.Integer({ minimum: 0, maximum: 9 })) }, { title: 'Karma' })),
    reporter: Type.Optional(Type.Array(Type.Object({ who: withChoices(Type.String({ title: 'Who' }), 'policy') }), { maxItems: 3 })),
  });
  const described = describeRuleConditions(extended);
  assert.equal(described.length, fields.length + 3);
  assert.deepEqual(described.at(-3), { key: 'mood', title: 'Mood', description: 'The mood is listed', kind: 'choices', values: ['calm', 'angry'], maxItems: 2 });
  assert.deepEqual(described.at(-2), { key: 'karma', title: 'Karma', description: '', kind: 'range', min: 0, max: 9, integer: true });
  const reporter = described.at(-1)!;
  assert.ok(reporter.kind === 'entries');
  assert.deepEqual(reporter.properties, [{ key: 'who', title: 'Who', required: true, kind: 'string', choicesFrom: 'policy' }]);

  assert.throws(() => describeRuleConditions(Type.Object({ when: Type.Optional(Type.Record(Type.String(), Type.Number())) })), /\/when: no form control/);
  assert.throws(() => describeRuleConditions(Type.Object({ list: Type.Array(Type.Object({ deep: Type.Array(Type.String()) })) })), /\/list\/deep: no form control/);
});
