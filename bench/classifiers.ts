/**
 * `npm run bench:classifiers`: CPU time to score one 280-character message
 * through ALL classifier policies (fresh text each iteration, so the feature
 * memo never hits across iterations), plus model load time and memory.
 */
import { performance } from 'node:perf_hooks';
import { cpuUsage, memoryUsage } from 'node:process';
import { distinctBenchMessage } from './message.ts';

const loadStart = performance.now();
const rssBefore = memoryUsage().rss;
const { classifierPolicies, loadModels, detectLanguage, analyzeSentiment } = await import('../src/core/classifiers/index.ts');
loadModels();
const loadMs = performance.now() - loadStart;
const rssAfter = memoryUsage().rss;

const base =
  'Hey everyone, check out the new release notes! We fixed the login bug, improved search speed and added dark mode. ' +
  'Let me know what you think in the comments, and thanks to all of you who reported issues this week. Seriously great work';
const messages = Array.from({ length: 2000 }, (_, i) => `${base.slice(0, 270)} #${i.toString(36)}`.slice(0, 280));

function scoreAll(text: string): number {
  let sum = 0;
  for (const policy of classifierPolicies) {
    const result = policy.evaluate(text, { id: policy.id, flag: true }, { fieldKey: null, original: text, analyses: new Map() });
    sum += (result as { probability: number }).probability;
  }
  return sum;
}

for (let i = 0; i < 200; i++) scoreAll(messages[i % messages.length]!); // warm-up (JIT)

const iterations = 5000;
const cpuStart = cpuUsage();
const wallStart = performance.now();
let sink = 0;
for (let i = 0; i < iterations; i++) sink += scoreAll(`${messages[i % messages.length]!.slice(0, 274)}${i}`);
const wallMs = performance.now() - wallStart;
const cpu = cpuUsage(cpuStart);

// The default channel's eight classifiers on the message `npm run bench` sends in its distinct-message run (a new
// request number at its end each time), with one analyses map per message as the pipeline shares it.
const DEFAULT_CLASSIFIERS = ['toxicity', 'toxicity_severe', 'hate', 'sexual', 'violence', 'self_harm', 'profanity', 'spam'];
const defaultPolicies = classifierPolicies.filter((policy) => DEFAULT_CLASSIFIERS.includes(policy.id));
function scoreDefault(text: string): number {
  const analyses = new Map<string, unknown>();
  let sum = 0;
  for (const policy of defaultPolicies) sum += (policy.evaluate(text, { id: policy.id, flag: true }, { fieldKey: null, original: text, analyses }) as { probability: number }).probability;
  return sum;
}
for (let i = 0; i < 2000; i++) sink += scoreDefault(distinctBenchMessage(i));
const defaultStart = cpuUsage();
for (let i = 0; i < 5_000; i++) sink += scoreDefault(distinctBenchMessage(2_000 + i));
const defaultUsed = cpuUsage(defaultStart);
const defaultCpu = (defaultUsed.user + defaultUsed.system) / 1000 / 5_000;

// An object of eight 280-character fields, scored policy by policy over the fields as the pipeline does. With each
// field's analyses shared across policies its features are computed once; with a fresh map per call (as before the
// per-field cache) only the four-text memo helps, and eight fields evict each other from it.
const FIELDS = 8;
function scoreObject(texts: string[], shareAnalyses: boolean): number {
  const analyses = texts.map(() => new Map<string, unknown>());
  let sum = 0;
  for (const policy of classifierPolicies) {
    for (let f = 0; f < texts.length; f++) {
      const result = policy.evaluate(texts[f]!, { id: policy.id, flag: true }, { fieldKey: `f${f}`, original: texts[f]!, analyses: shareAnalyses ? analyses[f]! : new Map() });
      sum += (result as { probability: number }).probability;
    }
  }
  return sum;
}
const objectIterations = 300;
const objectCpu: Record<string, number> = {};
for (const shared of [true, false]) {
  const objectStart = cpuUsage();
  for (let i = 0; i < objectIterations; i++) {
    const texts = Array.from({ length: FIELDS }, (_, f) => `${messages[(i * FIELDS + f) % messages.length]!.slice(0, 270)}${i}.${f}`);
    sink += scoreObject(texts, shared);
  }
  const used = cpuUsage(objectStart);
  objectCpu[shared ? 'shared' : 'fresh'] = (used.user + used.system) / 1000 / objectIterations;
}

// Both insights as a request with both enabled runs them (src/policies/insights.ts: one language detection, shared),
// and, for comparison, each detecting the language itself.
const { findInsight } = await import('../src/policies/insights.ts');
const insightStart = performance.now();
for (let i = 0; i < 1000; i++) {
  const scratch = {};
  findInsight('sentiment')!.run(messages[i]!, scratch);
  findInsight('language')!.run(messages[i]!, scratch);
}
const insightMs = (performance.now() - insightStart) / 1000;
const separateStart = performance.now();
for (let i = 1000; i < 2000; i++) {
  detectLanguage(messages[i]!);
  analyzeSentiment(messages[i]!);
}
const separateMs = (performance.now() - separateStart) / 1000;

console.log(`policies: ${classifierPolicies.length}, message length: 280 chars`);
console.log(`all policies per message: ${(((cpu.user + cpu.system) / 1000) / iterations).toFixed(3)} ms CPU, ${(wallMs / iterations).toFixed(3)} ms wall`);
console.log(`the default channel's 8 classifiers per distinct bench message (npm run bench): ${defaultCpu.toFixed(3)} ms CPU`);
console.log(`all policies per object of ${FIELDS} 280-character fields: ${objectCpu.shared!.toFixed(3)} ms CPU (features shared per field; ${objectCpu.fresh!.toFixed(3)} ms when each policy featurizes the fields again)`);
console.log(`insights (language + sentiment) per message: ${insightMs.toFixed(3)} ms wall (${separateMs.toFixed(3)} ms when each detects the language itself)`);
console.log(`model load: ${loadMs.toFixed(0)} ms, RSS +${((rssAfter - rssBefore) / 1024 / 1024).toFixed(0)} MB (total ${(memoryUsage().rss / 1024 / 1024).toFixed(0)} MB)`);
if (Number.isNaN(sink)) console.log('unreachable');
