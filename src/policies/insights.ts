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

export interface Insight {
  id: string;
  run(text: string): { value: string | null; probability: number };
}

const insights: Insight[] = [
  { id: 'sentiment', run: analyzeSentiment },
  { id: 'language', run: detectLanguage },
];
const byId = new Map(insights.map((i) => [i.id, i]));

export const insightIds = (): string[] => [...byId.keys()];
export const findInsight = (id: string): Insight | undefined => byId.get(id);
