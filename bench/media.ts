/**
 * npm run bench:media
 *  1. The image path alone: decode (sharp) + nsfwjs + OCR on 1, 2 and 4 media workers; images/s and
 *     p50/p99 latency per image, every worker's models loaded before the clock starts.
 *  2. Text beside images: the service as a child process (PGlite, doNotStore), text-only requests
 *     with autocannon alone, then again while image requests run beside them; req/s of both.
 * Environment: BENCH_IMAGES (images per worker count, default 24), BENCH_DURATION (s, default 10),
 * BENCH_WORKERS (default "1,2,4").
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import sharp from 'sharp';
import { createImageDecoder } from '../src/media/image-decoder.ts';
import { createWorkerImageClassifier, createWorkerTextReader, MediaWorkerPool } from '../src/media/media-workers.ts';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 24);
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WORKER_COUNTS = (process.env.BENCH_WORKERS ?? '1,2,4').split(',').map(Number);

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
/** A 1200×800 photo-like JPEG with a caption of two lines: what a user upload with text on it looks like. */
async function benchImage(i: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="800"><defs><linearGradient id="g" x2="1" y2="1"><stop offset="0" stop-color="hsl(${(i * 37) % 360},60%,55%)"/><stop offset="1" stop-color="#223"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${300 + (i % 5) * 100}" cy="350" r="180" fill="#f4d35e" opacity="0.8"/><rect x="0" y="600" width="1200" height="200" fill="#fff" opacity="0.85"/><text x="40" y="680" font-size="52" font-family="DejaVu Sans">${escapeXml(`Garage sale this Sunday number ${i}`)}</text><text x="40" y="760" font-size="52" font-family="DejaVu Sans">Call 415 555 ${String(1000 + i)}</text></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function imagePath(workers: number, images: Buffer[]) {
  const pool = new MediaWorkerPool({ size: workers, maxQueue: 10_000, ocr: true });
  await pool.warmUp();
  const decoder = createImageDecoder({ maxImagePixels: 50_000_000 });
  const classifier = createWorkerImageClassifier(pool);
  const reader = createWorkerTextReader(pool);
  // The first inference of each model instance compiles and allocates: one untimed image per worker.
  await Promise.all(
    Array.from({ length: workers }, async () => {
      const decoded = await decoder.decode(images[0]!);
      await Promise.all([classifier.classify(decoded), reader.read(decoded)]);
    }),
  );
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  // As many images in flight as workers: each image has two jobs (nsfwjs, OCR) that may run side by side.
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (next < images.length) {
        const bytes = images[next++]!;
        const t0 = performance.now();
        const decoded = await decoder.decode(bytes);
        await Promise.all([classifier.classify(decoded), reader.read(decoded)]);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  latencies.sort((a, b) => a - b);
  return { workers, images: images.length, perSecond: images.length / seconds, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
}

function startService(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API base URL:\s+(\S+)\/v1/.exec(out);
      if (match) resolve({ child, url: match[1]! });
    });
    child.on('exit', (code) => reject(new Error(`service exited with ${code}: ${out}`)));
  });
}

async function textBesideImages(images: Buffer[]) {
  const key = `bench_media_${Date.now()}_key_0123456789`;
  const dataDir = mkdtempSync(join(tmpdir(), 'om-bench-media-'));
  const service = await startService({ PORT: '0', LOG_LEVEL: 'warn', BOOTSTRAP_API_KEY: key, DATA_DIR: dataDir, DATABASE_URL: '', RATE_LIMIT_PER_KEY: '0', MEDIA_WORKERS: '1', BODY_LIMIT_BYTES: '8000000' });
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${key}` };
  const textBody = JSON.stringify({ content: { type: 'text', text: 'Hey everyone! The community garden opens on Saturday, bring gloves and a hat.' }, doNotStore: true });
  const moderate = `${service.url}/v1/moderate`;
  const imageBodies = images.map((bytes) => JSON.stringify({ content: { type: 'image', url: `data:image/jpeg;base64,${bytes.toString('base64')}` }, doNotStore: true }));
  try {
    // warm up: text models and the media worker (its first image loads the models)
    await autocannon({ url: moderate, method: 'POST', connections: 10, duration: 2, headers, body: textBody });
    await fetch(moderate, { method: 'POST', headers, body: imageBodies[0] });
    const alone = await autocannon({ url: moderate, method: 'POST', connections: 10, duration: DURATION, headers, body: textBody });
    let imagesDone = 0;
    let imagesRefused = 0;
    let running = true;
    const imageLoop = (async () => {
      let i = 0;
      while (running) {
        const response = await fetch(moderate, { method: 'POST', headers, body: imageBodies[i++ % imageBodies.length] });
        await response.arrayBuffer();
        if (response.status === 200) imagesDone++;
        else imagesRefused++;
      }
    })();
    const beside = await autocannon({ url: moderate, method: 'POST', connections: 10, duration: DURATION, headers, body: textBody });
    running = false;
    await imageLoop;
    // The machine is shared: text alone again after, and the comparison is with both runs' mean.
    const aloneAfter = await autocannon({ url: moderate, method: 'POST', connections: 10, duration: DURATION, headers, body: textBody });
    return {
      alone: { rps: alone.requests.average, p50: alone.latency.p50, p99: alone.latency.p99, errors: alone.errors + alone.non2xx },
      aloneAfter: { rps: aloneAfter.requests.average, p50: aloneAfter.latency.p50, p99: aloneAfter.latency.p99, errors: aloneAfter.errors + aloneAfter.non2xx },
      beside: { rps: beside.requests.average, p50: beside.latency.p50, p99: beside.latency.p99, errors: beside.errors + beside.non2xx },
      imagesPerSecond: imagesDone / DURATION,
      imagesRefused,
    };
  } finally {
    service.child.kill('SIGTERM');
    await new Promise((resolve) => service.child.once('exit', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const images = await Promise.all(Array.from({ length: IMAGES }, (_, i) => benchImage(i)));
console.log(`# decode + nsfwjs (MobileNetV2, tfjs wasm) + OCR (Guten OCR), ${IMAGES} JPEG images of 1200×800 with two lines of text`);
console.log('| workers | images/s | p50 ms | p99 ms |');
console.log('|---|---|---|---|');
for (const workers of WORKER_COUNTS) {
  const row = await imagePath(workers, images);
  console.log(`| ${row.workers} | ${row.perSecond.toFixed(2)} | ${row.p50.toFixed(0)} | ${row.p99.toFixed(0)} |`);
}
console.log(`\n# text-only POST /v1/moderate (doNotStore, 10 connections, ${DURATION} s), alone and beside one client sending images in a loop (MEDIA_WORKERS=1)`);
const text = await textBesideImages(images.slice(0, 8));
console.log('| run | text req/s | p50 ms | p99 ms | errors |');
console.log('|---|---|---|---|---|');
console.log(`| text alone | ${text.alone.rps.toFixed(0)} | ${text.alone.p50} | ${text.alone.p99} | ${text.alone.errors} |`);
console.log(`| text beside images | ${text.beside.rps.toFixed(0)} | ${text.beside.p50} | ${text.beside.p99} | ${text.beside.errors} |`);
console.log(`| text alone, after | ${text.aloneAfter.rps.toFixed(0)} | ${text.aloneAfter.p50} | ${text.aloneAfter.p99} | ${text.aloneAfter.errors} |`);
const aloneMean = (text.alone.rps + text.aloneAfter.rps) / 2;
console.log(`\ntext beside images / mean of text alone before and after: ${((100 * text.beside.rps) / aloneMean).toFixed(1)}%; images analysed meanwhile: ${text.imagesPerSecond.toFixed(2)}/s (${text.imagesRefused} refused)`);
