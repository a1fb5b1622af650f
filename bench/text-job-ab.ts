/**
 * `ROOTS=/path/to/before,/path/to/after npx tsx bench/text-job-ab.ts`: two (or more) checkouts' text-worker code
 * loaded side by side in one process and timed in alternating rounds on the distinct bench message, so that both
 * see the same host: on a shared machine whose load moves from minute to minute, runs of bench/text-job.ts minutes
 * apart differ by more than most changes. WHAT: `job` (the worker's job: normalization, the default channel's
 * policies, the packed answer), `features` (computeFeatures) or `score` (the model table's blocks for a whole text
 * and its sentence groups, features computed beforehand). ROUNDS (default 30) rounds of N (default 400) messages
 * per checkout; prints CPU µs per message: the minimum, 10th and 25th percentile and median of the rounds (the low
 * ones are the least disturbed).
 */
import { cpuUsage } from 'node:process';

const roots = (process.env.ROOTS ?? '').split(',').filter(Boolean);
if (roots.length === 0) throw new Error('ROOTS: a comma list of checkouts to compare');
const what = process.env.WHAT ?? 'job';
const ROUNDS = Number(process.env.ROUNDS ?? 30);
const N = Number(process.env.N ?? 400);

const sides: Array<{ root: string; run: (i: number) => number; times: number[] }> = [];
for (const root of roots) {
  const { loadModels } = await import(`${root}/src/core/classifiers/index.ts`);
  const { computeFeatures } = await import(`${root}/src/core/classifiers/features.ts`);
  const { modelTable } = await import(`${root}/src/core/classifiers/models.ts`);
  const { defaultChannelPolicies } = await import(`${root}/src/policies/registry.ts`);
  const { analyseTexts } = await import(`${root}/src/pipeline/text-analysis.ts`);
  const { packTextAnalysis } = await import(`${root}/src/pipeline/text-answer.ts`);
  const { distinctBenchMessage } = await import(`${root}/bench/message.ts`);
  loadModels();
  const settings = defaultChannelPolicies();
  const prepared = what === 'score' ? Array.from({ length: 2000 }, (_, i) => computeFeatures(distinctBenchMessage(500_000 + i))) : [];
  const out = new Float64Array(16);
  const runs: Record<string, (i: number) => number> = {
    job: (i) => packTextAnalysis(analyseTexts({ fields: [{ key: null, text: distinctBenchMessage(i) }], normalize: true, settings, insights: [] })).numbers.length,
    features: (i) => computeFeatures(distinctBenchMessage(i)).length,
    score: (i) => {
      const features = prepared[i % prepared.length]!;
      const table = modelTable();
      table.block(features, 0, out);
      for (const group of features.sentenceGroups) table.block(group, 1, out);
      return out[0]!;
    },
  };
  if (!runs[what]) throw new Error(`WHAT: one of ${Object.keys(runs).join(', ')}`);
  sides.push({ root, run: runs[what]!, times: [] });
}
let next = 0;
let sink = 0;
for (const side of sides) for (let i = 0; i < 1000; i++) sink += side.run(next++);
for (let round = 0; round < ROUNDS; round++) {
  for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
    const start = cpuUsage();
    for (let i = 0; i < N; i++) sink += side.run(next++ % 1_000_000);
    const used = cpuUsage(start);
    side.times.push((used.user + used.system) / N);
  }
}
const at = (sorted: number[], q: number) => sorted[Math.floor(sorted.length * q)]!.toFixed(1);
for (const side of sides) {
  const sorted = [...side.times].sort((a, b) => a - b);
  console.log(`${side.root}: ${what} min ${sorted[0]!.toFixed(1)} p10 ${at(sorted, 0.1)} p25 ${at(sorted, 0.25)} median ${at(sorted, 0.5)} µs per message`);
}
if (Number.isNaN(sink)) console.log('unreachable');
