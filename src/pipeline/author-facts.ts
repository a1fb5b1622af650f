import { createHash } from 'node:crypto';
import type { SubmissionFacts } from '../services/authors.ts';
import type { InsightResult } from '../policies/insights.ts';

const LINK = /\bhttps?:\/\/|\bwww\.[a-z0-9-]/gi;
const MIN_FINGERPRINT_LENGTH = 20;
const SENTIMENT_SCORE: Record<string, number> = { positive: 1, neutral: 0, negative: -1 };

/**
 * What one submission tells about its author, for trust and risk: derived
 * from the texts the policies saw and the evaluation, without extra I/O.
 */
export function authorFactsOf(input: {
  seenAt: number;
  flagged: boolean;
  contentType: string;
  texts: readonly string[];
  spoofed: boolean;
  insights: readonly InsightResult[];
}): SubmissionFacts {
  let linkCount = 0;
  for (const text of input.texts) linkCount += text.match(LINK)?.length ?? 0;
  const joined = input.texts.join('\n').toLowerCase().replace(/\s+/g, ' ').trim();
  const sentiment = input.insights.find((i) => i.id === 'sentiment');
  return {
    seenAt: input.seenAt,
    flagged: input.flagged,
    contentType: input.contentType,
    sentiment: sentiment?.value != null ? (SENTIMENT_SCORE[sentiment.value] ?? null) : null,
    spoofed: input.spoofed,
    linkCount,
    // Near-duplicates across authors (copy-paste spam) share this after case and spacing are folded.
    fingerprint: joined.length >= MIN_FINGERPRINT_LENGTH ? createHash('sha1').update(joined).digest('base64url') : null,
  };
}
