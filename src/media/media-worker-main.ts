import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import * as tf from '@tensorflow/tfjs';
import { setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import sharp from 'sharp';
import type { MediaWorkerRequest, MediaWorkerResponse, NsfwScores } from './media-workers.ts';

const MEDIA_WORKER_NICE = 10;

/**
 * One media worker: nsfwjs (MobileNetV2 on TensorFlow.js's wasm backend, one core) and Guten OCR
 * (PP-OCRv4 on onnxruntime), both from the files shipped inside their npm packages. Loaded once,
 * then one job at a time (see media-workers.ts).
 */
const options = workerData as { ocr: boolean };
// Linux keeps a nice value per thread: this lowers only this worker (and the threads it starts), so
// when cores are short the event loop answering text-only requests wins them over the image models.
try {
  os.setPriority(MEDIA_WORKER_NICE);
} catch {
  // not permitted or not Linux: the worker runs at the normal priority
}
const require = createRequire(import.meta.url);
setWasmPaths(`${path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/package.json'))}/dist/`);
await tf.setBackend('wasm');
await tf.ready();
const nsfwjs = await import('nsfwjs');
// nsfwjs announces the bundled model it loads on console.info: not for the server's output.
const info = console.info;
console.info = () => {};
const model = await nsfwjs.load('MobileNetV2', { size: 224 }).finally(() => {
  console.info = info;
});
type OcrEngine = { detect(image: Buffer): Promise<Array<{ text: string; mean: number }>> };
let ocr: OcrEngine | null = null;
if (options.ocr) {
  const { default: Ocr } = await import('@gutenye/ocr-node');
  // One thread per worker, as nsfwjs on wasm: MEDIA_WORKERS is then the number of cores media may use.
  ocr = (await Ocr.create({ onnxOptions: { intraOpNumThreads: 1, interOpNumThreads: 1 } })) as unknown as OcrEngine;
}

const CLASS_KEYS: Record<string, keyof NsfwScores> = { Drawing: 'drawing', Hentai: 'hentai', Neutral: 'neutral', Porn: 'porn', Sexy: 'sexy' };

async function classify(input: { data: Uint8Array; width: number; height: number }): Promise<NsfwScores> {
  const tensor = tf.tensor3d(Int32Array.from(input.data), [input.height, input.width, 3], 'int32');
  try {
    const predictions = await model.classify(tensor as unknown as tf.Tensor3D, 5);
    const scores: NsfwScores = { drawing: 0, hentai: 0, neutral: 0, porn: 0, sexy: 0 };
    for (const p of predictions) {
      const key = CLASS_KEYS[p.className];
      if (key) scores[key] = p.probability;
    }
    return scores;
  } finally {
    tensor.dispose();
  }
}

// Recognised lines below this mean confidence are noise (texture read as letters).
const MIN_LINE_CONFIDENCE = 0.5;

async function read(input: { data: Uint8Array; width: number; height: number }): Promise<string[]> {
  if (!ocr) return [];
  const png = await sharp(input.data, { raw: { width: input.width, height: input.height, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
  const lines = await ocr.detect(png);
  return lines.filter((line) => line.mean >= MIN_LINE_CONFIDENCE && line.text.trim() !== '').map((line) => line.text.trim());
}

parentPort!.on('message', async (request: MediaWorkerRequest) => {
  let response: MediaWorkerResponse;
  try {
    response = request.task === 'classify' ? { id: request.id, scores: await classify(request.raster) } : { id: request.id, lines: await read(request.raster) };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort!.postMessage(response);
});
parentPort!.postMessage({ ready: true });
