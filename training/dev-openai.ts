/**
 * The OpenAI moderation set split in two halves by a hash of each text (issue #27): the dev half may be studied
 * (its AUC per category, how long texts are scored, which kinds of texts rank wrongly) to decide what to write or
 * change; the test half is scored only by `npm run eval`, once per decision round. The set is evaluation-only,
 * so nothing of its text is ever trained on: what the dev half shows is turned into new messages written for the
 * corpus, judged by training/corpus/POLICIES.md, not by this set's labels.
 *
 *   npx tsx training/dev-openai.ts                       AUC per category on the dev half (counts one look)
 *   npx tsx training/dev-openai.ts --misses /tmp/x.jsonl also writes its worst-ranked texts there (never commit it)
 */
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { classifierPolicies, loadModels } from '../src/core/classifiers/index.ts';
import type { FieldResult, Policy } from '../src/core/policy.ts';
import { openaiHalf, openaiSamples, OPENAI_CATEGORIES, OPENAI_DEV_HALF_LOOKS } from './openai-split.ts';
import { rocAuc } from './metrics.ts';
import { recordLooks } from '../scripts/eval-realistic.ts';

const { values } = parseArgs({ options: { misses: { type: 'string' }, count: { type: 'string', default: '40' }, note: { type: 'string', default: '' } } });

loadModels();
const policies = new Map<string, Policy>(classifierPolicies.map((p) => [p.id, p]));
const probability = (policyId: string, text: string): number =>
  (policies.get(policyId)!.evaluate(text, { id: policyId, flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;

const dev = openaiSamples().filter((sample) => openaiHalf(sample.prompt) === 'dev');
const misses: string[] = [];
const perMiss = Number(values.count);
for (const [key, policyId, name] of OPENAI_CATEGORIES) {
  const items = dev.filter((s) => s[key] === 0 || s[key] === 1).map((s) => ({ text: s.prompt, label: s[key] as number, p: probability(policyId, s.prompt) }));
  const auc = rocAuc(items.map((i) => i.p), items.map((i) => i.label));
  const positives = items.filter((i) => i.label === 1).length;
  console.log(`${name.padEnd(11)} (${key.padEnd(2)}) ${policyId.padEnd(10)} dev half n ${String(items.length).padStart(4)} positives ${String(positives).padStart(3)} AUC ${auc.toFixed(3)}`);
  if (values.misses) {
    const positivesLow = items.filter((i) => i.label === 1).sort((a, b) => a.p - b.p).slice(0, perMiss);
    const negativesHigh = items.filter((i) => i.label === 0).sort((a, b) => b.p - a.p).slice(0, perMiss);
    for (const i of positivesLow) misses.push(JSON.stringify({ category: key, policy: policyId, label: 1, score: Number(i.p.toFixed(3)), text: i.text }));
    for (const i of negativesHigh) misses.push(JSON.stringify({ category: key, policy: policyId, label: 0, score: Number(i.p.toFixed(3)), text: i.text }));
  }
}
if (values.misses) writeFileSync(values.misses, `${misses.join('\n')}\n`);
recordLooks([OPENAI_DEV_HALF_LOOKS], values.note || 'training/dev-openai.ts');
