import { parentPort } from 'node:worker_threads';
import { extractPage, type PageExtractOptions } from './page-extractor.ts';

/** Extracts pages off the event loop (see page-worker.ts). */
parentPort!.on('message', (message: { id: number; html: string; pageUrl: string; options: PageExtractOptions }) => {
  try {
    parentPort!.postMessage({ id: message.id, result: extractPage(message.html, message.pageUrl, message.options) });
  } catch (error) {
    parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
  }
});
parentPort!.postMessage({ ready: true });
