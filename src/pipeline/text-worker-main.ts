import { parentPort } from 'node:worker_threads';
import { loadModels } from '../core/classifiers/index.ts';
import { analyseTexts, type TextJob } from './text-analysis.ts';
import { packBatch, packTextAnalysis, type TextAnswer } from './text-answer.ts';

/** Runs long texts' normalization and built-in policies off the event loop (see text-workers.ts). */
loadModels();
// Jobs come in batches (those waiting when this worker became idle) and are answered together, in order.
parentPort!.on('message', (message: { jobs: TextJob[] }) => {
  const answers = message.jobs.map((job): TextAnswer => {
    try {
      return { result: packTextAnalysis(analyseTexts(job)) };
    } catch (error) {
      return { error: error instanceof Error ? error.message : String(error) };
    }
  });
  // The batch's answers in one set of arrays (text-answer.ts packBatch).
  parentPort!.postMessage({ batch: packBatch(answers) });
});
parentPort!.postMessage({ ready: true });
