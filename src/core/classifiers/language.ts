/**
 * Language insight: franc-min trigram detection, ISO 639-3 mapped to 639-1.
 * Languages without a 639-1 code are reported by their 639-3 code.
 */
import { francAll } from 'franc-min';
import { iso6393To1 } from 'iso-639-3';

/** Individual languages franc reports whose 639-1 code belongs to the macrolanguage. */
const MACROLANGUAGE_TO_639_1: Record<string, string> = {
  cmn: 'zh', arb: 'ar', pes: 'fa', swh: 'sw', ckb: 'ku', uzn: 'uz', zlm: 'ms', azj: 'az', plt: 'mg',
  pbu: 'ps', npi: 'ne', qug: 'qu', fuv: 'ff', koi: 'kv', ekk: 'et', lvs: 'lv', khk: 'mn', ydd: 'yi',
};

/** Below this many letters trigram statistics are noise. */
const MIN_LETTERS = 10;
const LETTER = /\p{L}/gu;
/** Sharpness of the softmax over franc's relative distances (top score is always 1). */
const SHARPNESS = 18;

export function toIso6391(code: string): string {
  return iso6393To1[code] ?? MACROLANGUAGE_TO_639_1[code] ?? code;
}

export function detectLanguage(text: string): { value: string | null; probability: number } {
  const letters = text.match(LETTER)?.length ?? 0;
  if (letters < MIN_LETTERS) return { value: null, probability: 0 };
  const candidates = francAll(text, { minLength: MIN_LETTERS });
  const top = candidates[0];
  if (!top || top[0] === 'und') return { value: null, probability: 0 };
  let total = 0;
  for (const [, score] of candidates.slice(0, 10)) total += Math.exp(SHARPNESS * (score - 1));
  // Short texts get less confidence even when one language wins clearly.
  const lengthFactor = Math.min(1, 0.55 + letters / 120);
  const probability = (1 / total) * lengthFactor;
  return { value: toIso6391(top[0]), probability: Math.round(probability * 1000) / 1000 };
}
