/**
 * Timings of the media-extras parts on generated inputs: perceptual hashing, hash-list scans of
 * 100,000 entries, video sampling and audio conversion with ffmpeg, web page extraction.
 * Run: npm run bench:media-extras (needs Debian's ffmpeg and espeak-ng).
 */
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { toWav16kMono } from '../src/media/audio.ts';
import { computeImageHash, hashWords, wordsDistance } from '../src/media/image-hash.ts';
import { extractPage } from '../src/media/page-extractor.ts';
import { testVideo } from '../src/media/test-media.ts';
import { scenePng } from '../src/media/test-images.ts';
import { extractVideo } from '../src/media/video-frames.ts';

async function timed(label: string, runs: number, work: () => Promise<unknown> | unknown): Promise<void> {
  await work(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  console.log(`${label.padEnd(58)} mean ${mean.toFixed(1).padStart(7)} ms   median ${times[times.length >> 1]!.toFixed(1).padStart(7)} ms   (${runs} runs)`);
}

const photo = await scenePng(8, 1600, 1200);
const jpeg = await sharp(photo).jpeg({ quality: 85 }).toBuffer();
await timed('dHash of a 1600×1200 JPEG', 20, () => computeImageHash(jpeg));

let state = 7;
const random32 = () => (state = (Math.imul(state, 1664525) + 1013904223) >>> 0);
const entries = new Uint32Array(400_000).map(() => random32());
const probe = hashWords(await computeImageHash(jpeg));
await timed('scan of 100,000 hash-list entries', 20, () => {
  let best = 129;
  for (let i = 0; i < 100_000; i++) best = Math.min(best, wordsDistance(probe, false, entries, i * 4, false));
  return best;
});

const video360 = await testVideo();
const video720 = await testVideo({ size: '1280x720', parts: [4, 2, 4] });
await timed('extractVideo 7 s 640×360 H.264+AAC, 16-frame budget', 5, () => extractVideo(video360, { maxFrames: 16, timeoutMs: 60_000 }));
await timed('extractVideo 10 s 1280×720 H.264+AAC, 16-frame budget', 5, () => extractVideo(video720, { maxFrames: 16, timeoutMs: 60_000 }));
await timed('toWav16kMono of the 10 s 720p video', 5, () => toWav16kMono(video720, { timeoutMs: 60_000, maxSeconds: 600 }));

const paragraphs = Array.from({ length: 120 }, (_, i) => `<p>Paragraph ${i}: the council met to discuss the timetable, the budget and the new library opening hours for residents.</p>`).join('');
const nav = Array.from({ length: 80 }, (_, i) => `<li><a href="/s/${i}">Section ${i}</a></li>`).join('');
const page = `<html><head><title>t</title></head><body><nav><ul>${nav}</ul></nav><aside>${nav}</aside><article>${paragraphs}</article><footer>${nav}</footer></body></html>`;
await timed(`extractPage of a ${Math.round(page.length / 1024)} KB page (120 paragraphs, 240 links)`, 20, () => extractPage(page, 'https://example.com/'));
