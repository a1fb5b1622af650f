import { analyzeSentiment, detectLanguage } from '../core/classifiers/index.ts';

/**
 * Insights describe content without affecting flagging. Each maps text to a
 * value and its probability.
 */
export interface InsightResult {
  id: string;
  type: 'insight';
  probability: number;
  value: string | null;
}

/** What the insights of one request share: the sentiment insight checks the language the language insight reports. */
export interface InsightScratch {
  language?: { value: string | null; probability: number };
}

export interface Insight {
  id: string;
  run(text: string, scratch: InsightScratch): { value: string | null; probability: number };
}

// Language detection costs more than all text policies together on a short message, so it runs once per request.
const languageOf = (text: string, scratch: InsightScratch) => (scratch.language ??= detectLanguage(text));

const insights: Insight[] = [
  { id: 'sentiment', run: (text, scratch) => analyzeSentiment(text, languageOf(text, scratch)) },
  { id: 'language', run: languageOf },
];
const byId = new Map(insights.map((i) => [i.id, i]));

export const insightIds = (): string[] => [...byId.keys()];
export const findInsight = (id: string): Insight | undefined => byId.get(id);
