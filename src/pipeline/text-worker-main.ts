import { parentPort } from 'node:worker_threads';
import { loadModels } from '../core/classifiers/index.ts';
import { analyseTexts, type TextJob } from './text-analysis.ts';

/** Runs long texts' normalization and built-in policies off the event loop (see text-workers.ts). */
loadModels();
parentPort!.on('message', (message: { id: number; job: TextJob }) => {
  try {
    parentPort!.postMessage({ id: message.id, result: analyseTexts(message.job) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort!.postMessage({ ready: true });
