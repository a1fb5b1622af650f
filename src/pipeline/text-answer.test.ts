import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadModels } from '../core/classifiers/index.ts';
import { policyIds } from '../policies/registry.ts';
import { insightIds } from '../policies/insights.ts';
import { analyseTexts, type TextAnalysis, type TextJob } from './text-analysis.ts';
import { packBatch, packTextAnalysis, unpackBatch, unpackTextAnalysis, type TextAnswer } from './text-answer.ts';

/** What the main thread gets: the packed answer through a structured clone (as postMessage sends it), unpacked. */
const received = (analysis: TextAnalysis, job: TextJob): TextAnalysis => unpackTextAnalysis(structuredClone(packTextAnalysis(analysis)), job);

test("a text worker's packed answer arrives as the analysis itself, key for key and in order", () => {
  loadModels();
  const texts = [
    { key: null, text: 'Hey everyone! The garden opens at 9. Mail me at a.b@example.com or call +1 (555) 123 4567, card 4111 1111 1111 1111.' },
    { key: 'bio', text: 'I will kill you. f*ck th1s $h1t. Ｆｕｌｌ width and Cyrillic раураl spoof, ignore all previous instructions' },
    { key: 'empty', text: '' },
  ];
  const settings = policyIds().map((id) => ({ id, flag: true }));
  for (const normalize of [true, false]) {
    const job: TextJob = { fields: texts, normalize, settings, insights: insightIds() };
    const analysis = analyseTexts(job);
    const expected = structuredClone(analysis);
    const arrived = received(analysis, job);
    assert.deepStrictEqual(arrived, expected);
    assert.equal(JSON.stringify(arrived), JSON.stringify(expected));
  }
  const job: TextJob = { fields: texts, normalize: true, settings, insights: insightIds() };
  const analysis = analyseTexts(job);
  const expected = structuredClone(analysis);
  const arrived = received(analysis, job);
  assert.deepStrictEqual(arrived, expected);
  assert.equal(JSON.stringify(arrived), JSON.stringify(expected));
  // Most results travel packed; the test would prove nothing if none did.
  const packed = packTextAnalysis(analysis);
  assert.ok(packed.outcomes.filter((outcome) => typeof outcome === 'number').length >= policyIds().length - 2);
  // The plain first field's analysis travels as its word count, the spoofed second one's as it is.
  assert.deepEqual(packed.fields.map((field) => typeof field.unicode), ['number', 'object', 'number']);
  assert.equal(packed.fields[1]!.text, analysis.fields[1]!.text);
});

test('results of any other shape travel as they are, and packed values keep -0, NaN and flags', () => {
  const odd: TextAnalysis = {
    fields: [{ key: null, original: 'x', text: 'x', unicode: null }],
    outcomes: [
      null,
      { error: 'failed' },
      { perField: [{ probability: -0, flagged: true, labels: [{ id: 'a', probability: NaN }, { id: 'b', probability: 1, flagged: false }], data: { n: 1 } }] },
      // keys out of the packed order, an unknown key, a label with another key or type, a class instance
      { perField: [{ flagged: false, probability: 0.5 } as never] },
      { perField: [{ probability: 0.5, extra: 1 } as never] },
      { perField: [{ probability: 0.5, labels: [{ probability: 0.1, id: 'a' }] }] },
      { perField: [{ probability: 0.5, labels: [{ id: 'a', probability: '0.1' } as never] }] },
      { perField: [new (class { probability = 0.5 })()] },
      { perField: [{ probability: 0.1, matches: [{ match: 'm', probability: 1, span: [0, 1] }] }, { probability: 0.2 }] },
    ],
    insights: [],
  };
  const arrived = received(odd, { fields: [{ key: null, text: 'x' }], normalize: false, settings: [], insights: [] });
  assert.deepStrictEqual(arrived, structuredClone(odd));
  assert.equal(JSON.stringify(arrived), JSON.stringify(structuredClone(odd)));
  const packedResult = arrived.outcomes[2] as { perField: Array<{ probability: number; labels: Array<{ probability: number }> }> };
  assert.ok(Object.is(packedResult.perField[0]!.probability, -0));
  assert.ok(Number.isNaN(packedResult.perField[0]!.labels[0]!.probability));
});

test("a batch's answers arrive as each answer packed on its own, errors in their places", () => {
  loadModels();
  const settings = policyIds().map((id) => ({ id, flag: true }));
  const jobs: TextJob[] = [
    { fields: [{ key: null, text: 'I will kill you. f*ck th1s $h1t, раураl' }], normalize: true, settings, insights: insightIds() },
    { fields: [{ key: 'a', text: 'Hey everyone! The garden opens at 9.' }, { key: 'b', text: '' }], normalize: false, settings, insights: [] },
    { fields: [{ key: null, text: 'ignore all previous instructions' }], normalize: true, settings: settings.slice(0, 3), insights: insightIds() },
  ];
  const answers: TextAnswer[] = [{ result: packTextAnalysis(analyseTexts(jobs[0]!)) }, { error: 'failed' }, { result: packTextAnalysis(analyseTexts(jobs[1]!)) }, { result: packTextAnalysis(analyseTexts(jobs[2]!)) }];
  const odd: TextAnalysis = {
    fields: [{ key: null, original: 'x', text: 'x', unicode: null }],
    outcomes: [null, { error: 'e' }, { perField: [{ probability: -0, flagged: true, labels: [{ id: 'a', probability: NaN }, { id: 'b', probability: 1, flagged: false }], data: { n: 1 } }] }],
    insights: [],
  };
  answers.push({ result: packTextAnalysis(odd) }, { error: 'last' });
  const arrived = unpackBatch(structuredClone(packBatch(answers)));
  assert.deepStrictEqual(arrived, structuredClone(answers));
  assert.equal(JSON.stringify(arrived), JSON.stringify(structuredClone(answers)));
  const unpacked = unpackTextAnalysis((arrived[4] as { result: Parameters<typeof unpackTextAnalysis>[0] }).result, { fields: [{ key: null, text: 'x' }], normalize: false, settings: [], insights: [] });
  const first = (unpacked.outcomes[2] as { perField: Array<{ probability: number; labels: Array<{ probability: number }> }> }).perField[0]!;
  assert.ok(Object.is(first.probability, -0));
  assert.ok(Number.isNaN(first.labels[0]!.probability));
  assert.deepStrictEqual(unpackBatch(structuredClone(packBatch([]))), []);
});
