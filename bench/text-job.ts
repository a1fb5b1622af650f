/**
 * `npx tsx bench/text-job.ts`: in-process CPU of what a text worker does per distinct bench message (the default
 * channel: normalization, the 8 classifiers, the Unicode policy), its parts (features alone, the language check the
 * main thread makes, the answer's message from the worker, alone and in a batch of 16 as the workers send them), for speed work on the path of `npm run bench`'s distinct-message
 * run without the noise of HTTP. ROUNDS (default 5) rounds of ITERATIONS (default 4,000) messages; prints each round's
 * µs per message and the median.
 */
import { cpuUsage } from 'node:process';
import { MessageChannel, receiveMessageOnPort } from 'node:worker_threads';
import { loadModels } from '../src/core/classifiers/index.ts';
import { computeFeatures } from '../src/core/classifiers/features.ts';
import { languageSupport } from '../src/core/classifiers/language-support.ts';
import { defaultChannelPolicies } from '../src/policies/registry.ts';
import { analyseTexts, type TextJob } from '../src/pipeline/text-analysis.ts';
import { packBatch, packTextAnalysis, unpackBatch, unpackTextAnalysis, type PackedTextAnalysis } from '../src/pipeline/text-answer.ts';
import { distinctBenchMessage } from './message.ts';

const ROUNDS = Number(process.env.ROUNDS ?? 5);
const ITERATIONS = Number(process.env.ITERATIONS ?? 4_000);

loadModels();
const settings = defaultChannelPolicies();
const job = (i: number): TextJob => ({ fields: [{ key: null, text: distinctBenchMessage(i) }], normalize: true, settings, insights: [] });

let next = 0;
let sink = 0;
const parts: Record<string, (i: number) => void> = {
  'text job (worker)': (i) => void (sink += analyseTexts(job(i)).outcomes.length),
  'computeFeatures': (i) => void (sink += computeFeatures(distinctBenchMessage(i)).length),
  'languageSupport (main)': (i) => void (sink += languageSupport(distinctBenchMessage(i)).status.length),
  // The worker's answer packed, posted, received and unpacked (both threads' share, here on one).
  'answer message (both ends)': (() => {
    const sent = job(0);
    const answer = analyseTexts(sent);
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    return () => {
      port1.postMessage({ results: [{ result: packTextAnalysis(answer) }] });
      const { results } = receiveMessageOnPort(port2)!.message as { results: Array<{ result: Parameters<typeof unpackTextAnalysis>[0] }> };
      sink += unpackTextAnalysis(results[0]!.result, sent).outcomes.length;
    };
  })(),
  // As the text workers send answers: a batch of 16 in one message (packBatch), per answer.
  'batch answer (both ends)': (() => {
    const sent = Array.from({ length: 16 }, (_, i) => job(i));
    const answers = sent.map((one) => analyseTexts(one));
    const { port1, port2 } = new MessageChannel();
    port1.unref();
    let batch: PackedTextAnalysis[] = [];
    let which: number[] = [];
    return (i: number) => {
      batch.push(packTextAnalysis(answers[i % 16]!));
      which.push(i % 16);
      if (batch.length < 16) return;
      port1.postMessage({ batch: packBatch(batch.map((result) => ({ result }))) });
      const jobs = which;
      batch = [];
      which = [];
      const arrived = unpackBatch((receiveMessageOnPort(port2)!.message as { batch: Parameters<typeof unpackBatch>[0] }).batch);
      arrived.forEach((answer, k) => {
        if ('result' in answer) sink += unpackTextAnalysis(answer.result, sent[jobs[k]!]!).outcomes.length;
      });
    };
  })(),
};
for (const [name, run] of Object.entries(parts)) {
  for (let i = 0; i < 500; i++) run(next++);
  const rounds: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = cpuUsage();
    // Each message is new to the featurizer's memo (it keeps four).
    for (let i = 0; i < ITERATIONS; i++) run(next++ % 1_000_000);
    const used = cpuUsage(start);
    rounds.push((used.user + used.system) / ITERATIONS);
  }
  const median = [...rounds].sort((a, b) => a - b)[Math.floor(rounds.length / 2)]!;
  console.log(`${name.padEnd(26)} ${median.toFixed(1).padStart(6)} µs per message (rounds ${rounds.map((r) => r.toFixed(1)).join(' / ')})`);
}
if (Number.isNaN(sink)) console.log('unreachable');
