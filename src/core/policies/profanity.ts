import { englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';
import type { FieldResult, Policy } from '../policy.ts';

const matcher = new RegExpMatcher({ ...englishDataset.build(), ...englishRecommendedTransformers });

/**
 * Obscenity's English matcher sees through spellings a trained model has
 * rarely met ("fuuuuckin", "bullsh!t", styled letters) while keeping word
 * boundaries ("Scunthorpe", "assessment"). One distinct term scores 0.8, each
 * further one 0.1 more.
 */
export function obscenityScore(text: string): number {
  if (text.length === 0) return 0;
  const matches = matcher.getAllMatches(text);
  if (matches.length === 0) return 0;
  const distinct = new Set(matches.map((m) => m.termId)).size;
  return Math.min(1, 0.8 + 0.1 * (distinct - 1));
}

/** The served profanity policy: the trained model, raised to the obscenity matcher's score when that is higher. */
export function withObscenity(model: Policy): Policy {
  return {
    ...model,
    evaluate(text, settings, ctx) {
      const outcome = model.evaluate(text, settings, ctx);
      const lexical = obscenityScore(text);
      const combine = (result: FieldResult): FieldResult =>
        lexical > result.probability ? { ...result, probability: lexical, data: { ...result.data, lexicon: 'obscenity' } } : result;
      return outcome instanceof Promise ? outcome.then(combine) : combine(outcome);
    },
  };
}
