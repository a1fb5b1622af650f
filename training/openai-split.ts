/**
 * The two halves of the OpenAI moderation evaluation set (evaluation only): `dev` may be studied by
 * training/dev-openai.ts, `test` is scored only by `npm run eval`. A text's half is fixed by a hash of the
 * text itself, so it never moves when the file is reordered.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { DATASETS_DIR } from './datasets.ts';

export type OpenaiSample = Record<string, unknown> & { prompt: string };

/** Label key, policy, name, and issue #4's ROC AUC bar. */
export const OPENAI_CATEGORIES: Array<[string, string, string, number]> = [
  ['S', 'sexual', 'sexual', 0.93],
  ['H', 'hate', 'hate', 0.82],
  ['HR', 'toxicity', 'harassment', 0.82],
  ['V', 'violence', 'violence', 0.8],
  ['SH', 'self_harm', 'self-harm', 0.8],
];

export const OPENAI_DEV_HALF_LOOKS = 'OpenAI moderation eval, dev half (studied since round 4)';

export function openaiSamples(): OpenaiSample[] {
  return readFileSync(resolve(DATASETS_DIR, 'openai-moderation-eval/samples-1680.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as OpenaiSample);
}

export function openaiHalf(text: string): 'dev' | 'test' {
  return createHash('sha256').update(`openai-half:${text}`).digest()[0]! < 128 ? 'dev' : 'test';
}

export const OPENAI_TEST_HALF_LOOKS = 'OpenAI moderation eval, test half (judges issue #27 since round 4)';
