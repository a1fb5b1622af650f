import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { FieldResult, Policy } from '../policy.ts';

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/**
 * Lexicon profanity built on obscenity's English dataset, which already sees
 * through repeated letters, leetspeak and many lookalike characters. One
 * match is a strong signal; more matches push the probability towards 1.
 */
export const lexiconProfanityPolicy: Policy = {
  id: 'profanity',
  type: 'classifier',
  severity: 0.5,
  defaultThreshold: 0.5,
  evaluate(text): FieldResult {
    if (text.length === 0) return { probability: 0 };
    const matches = matcher.getAllMatches(text);
    if (matches.length === 0) return { probability: 0 };
    const distinct = new Set(matches.map((m) => m.termId)).size;
    return { probability: Math.min(1, 0.8 + 0.1 * (distinct - 1)) };
  },
};
