/**
 * Sentiment insight: three one-vs-rest logistic models trained on TweetEval
 * sentiment (validation split) plus TweetEval emotion, English only.
 */
import { featuresOf } from './features.ts';
import { detectLanguage } from './language.ts';
import { model } from './models.ts';

export type Sentiment = 'positive' | 'neutral' | 'negative';
const SUPPORTED_LANGUAGES = new Set(['en']);

export function sentimentScores(text: string): Record<Sentiment, number> | null {
  const negative = model('sentiment_negative');
  const neutral = model('sentiment_neutral');
  const positive = model('sentiment_positive');
  if (!negative || !neutral || !positive) return null;
  const features = featuresOf(text);
  const raw = {
    negative: negative.probability(features),
    neutral: neutral.probability(features),
    positive: positive.probability(features),
  };
  const total = raw.negative + raw.neutral + raw.positive;
  return { negative: raw.negative / total, neutral: raw.neutral / total, positive: raw.positive / total };
}

/** `language` is the text's detected language when the caller already has it (the pipeline's language insight). */
export function analyzeSentiment(text: string, language = detectLanguage(text)): { value: Sentiment | null; probability: number } {
  // Too-short texts have no detected language; score them anyway unless they are clearly not English.
  if (language.value !== null && !SUPPORTED_LANGUAGES.has(language.value) && language.probability > 0.5) return { value: null, probability: 0 };
  if (!/\p{L}/u.test(text)) return { value: null, probability: 0 };
  const scores = sentimentScores(text);
  if (!scores) return { value: null, probability: 0 };
  let best: Sentiment = 'neutral';
  for (const label of ['negative', 'positive'] as const) if (scores[label] > scores[best]) best = label;
  return { value: best, probability: Math.round(scores[best] * 1000) / 1000 };
}
