/**
 * Wordlist matching speed: a 100,000-entry list (generated deterministically)
 * against 280-character messages, in every mode, plus compile time.
 * Run: npm run bench:wordlist
 */
import { performance } from 'node:perf_hooks';
import { compileWordlist, type WordlistMode } from '../src/core/wordlist/matcher.ts';

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 0x1_0000_0000;
  };
}

const random = seededRandom(20240605);
const LETTERS = 'etaoinshrdlcumwfgypbvkjxqz';
function randomWord(): string {
  const length = 4 + Math.floor(random() * 7);
  let word = '';
  // Skewed towards frequent letters so words look plausible and collide with text sometimes.
  for (let index = 0; index < length; index++) word += LETTERS[Math.floor(random() ** 2 * LETTERS.length)];
  return word;
}

const LIST_SIZE = 100_000;
const words = new Set<string>();
while (words.size < LIST_SIZE) {
  words.add(random() < 0.05 ? `${randomWord()} ${randomWord()}` : randomWord());
}
const list = [...words];

const PROSE = (
  'the quick brown fox jumps over a lazy dog while we wait for the train at 10:30 and talk about ' +
  'prices going up again this year so maybe we should cook at home more often than before honestly'
).split(' ');
const messages: string[] = [];
for (let index = 0; index < 1_000; index++) {
  let message = '';
  while (message.length < 280) {
    const roll = random();
    const word = roll < 0.08 ? list[Math.floor(random() * list.length)]! : roll < 0.1 ? 'fr33 f.r.e.e sh!t' : PROSE[Math.floor(random() * PROSE.length)]!;
    message += `${word} `;
  }
  messages.push(message.slice(0, 280));
}

const compileStart = performance.now();
const compiled = compileWordlist(list);
const compileMs = performance.now() - compileStart;
const similarIndexStart = performance.now();
compiled.match('warm up the similarity index', 'similar');
const similarIndexMs = performance.now() - similarIndexStart;

function measure(mode: WordlistMode): { meanUs: number; p99Us: number; matches: number } {
  for (const message of messages.slice(0, 200)) compiled.match(message, mode);
  const timings: number[] = [];
  let matches = 0;
  for (let round = 0; round < 3; round++) {
    for (const message of messages) {
      const start = performance.now();
      matches += compiled.match(message, mode).length;
      timings.push(performance.now() - start);
    }
  }
  timings.sort((a, b) => a - b);
  const mean = timings.reduce((sum, value) => sum + value, 0) / timings.length;
  return { meanUs: mean * 1000, p99Us: timings[Math.floor(timings.length * 0.99)]! * 1000, matches: matches / 3 };
}

console.log(`list: ${compiled.size} entries (${list.filter((word) => word.includes(' ')).length} multi-word), messages: ${messages.length} x 280 chars`);
console.log(`compile: ${compileMs.toFixed(0)} ms; similarity index (built on first 'similar' match): ${similarIndexMs.toFixed(0)} ms`);
console.log(`heap used after compile: ${(process.memoryUsage().heapUsed / 1e6).toFixed(0)} MB`);
for (const mode of ['exact', 'stem', 'similar'] as const) {
  const { meanUs, p99Us, matches } = measure(mode);
  console.log(`${mode.padEnd(8)} mean ${meanUs.toFixed(1)} µs/message, p99 ${p99Us.toFixed(1)} µs, ${matches} matches per 1000 messages`);
}
