import { test } from 'node:test';
import assert from 'node:assert/strict';
import { LEXICON_FEATURES, lexiconMatches, setProfanityTerms } from './lexicons.ts';
import { tokensOf } from './features.ts';

const PROFANITY = new Set(['prof_mild', 'prof_strong', 'prof_severe'].map((name) => (LEXICON_FEATURES as readonly string[]).indexOf(name)));
/** The profanity terms found in `text` (the curated lexicons, such as "die" for violence, left out). */
const phrases = (text: string) => lexiconMatches(tokensOf(text)).filter((m) => m.entry.categories.some((c) => PROFANITY.has(c))).map((m) => m.phrase);

test('a "stem*" term matches one word that starts with the stem, not a phrase', () => {
  setProfanityTerms([{ term: 'scheiß*', severity: 2, categories: ['own de'] }, { term: 'retard', severity: 3, categories: [] }, { term: 'bj', severity: 2, categories: [] }]);
  try {
    assert.deepEqual(phrases('so ein Scheißwetter heute'), ['scheißwetter']);
    assert.deepEqual(phrases('die Scheißkarre springt nicht an'), ['scheißkarre']);
    assert.deepEqual(phrases('scheiß drauf'), ['scheiß']);
    assert.deepEqual(phrases('ein schönes Wetter'), []);
  } finally {
    setProfanityTerms(null);
  }
});

test('an English list word that is an ordinary French or German word is recognised by the word before it', () => {
  setProfanityTerms([{ term: 'retard', severity: 3, categories: [] }, { term: 'bj', severity: 2, categories: [] }]);
  try {
    assert.deepEqual(phrases('dsl je suis en retard'), []);
    assert.deepEqual(phrases('40 min de retard sur le TER'), []);
    assert.deepEqual(phrases('Verkaufe Golf 2, Bj. 1989'), []);
    assert.deepEqual(phrases('shut up you retard'), ['retard']);
    assert.deepEqual(phrases('she gave him a bj'), ['bj']);
  } finally {
    setProfanityTerms(null);
  }
});
