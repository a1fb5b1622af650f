import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classifierPolicies, loadModels } from './index.ts';
import { tokensOf } from './features.ts';
import { maskedProfanityEntry, profanityVariantEntry } from './lexicons.ts';
import type { FieldResult } from '../policy.ts';

/** The words profanityVariantEntry reads in `text`, as the lexicon word each one counts as. */
function variants(text: string): string[] {
  const tokens = tokensOf(text);
  const found: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const variant = profanityVariantEntry(tokens[i]!, i > 0 ? tokens[i - 1]! : '');
    if (variant !== undefined) found.push(variant.word);
  }
  return found;
}

test('a listed word inside quote marks, an -es plural and the words added after the models are read', () => {
  loadModels();
  assert.deepEqual(variants("me llamó 'puta de mierda' en el chat"), ['puta', 'mierda']);
  assert.deepEqual(variants('Putos maricones, que se vayan'), ['maricon']);
  assert.deepEqual(variants('vai se fuder vcs dois'), ['fuder']);
  assert.deepEqual(variants('jugó hijueputamente bien, weona'), ['hijueputamente', 'weona']);
  assert.deepEqual(variants('what a shitshow'), ['shitshow']);
});

test('what the lexicon already has, and look-alikes of the rules, are not read again', () => {
  loadModels();
  // Listed themselves: the lexicon's own match counts them once.
  assert.deepEqual(variants('puta mierda cabrones shit'), []);
  // -s plurals of words ending in k or c, and a word that only looks like an -es plural.
  assert.deepEqual(variants('spikes on the fence, and spices in the stew'), []);
  assert.deepEqual(variants('Los anales de la historia'), []);
  // Words that start like an added swear word.
  assert.deepEqual(variants('shitake mushrooms and Shittim wood'), []);
  // Quote marks around an ordinary word, and a false friend in quotes.
  assert.deepEqual(variants("she said 'hello' and 'en retard'"), []);
});

test('the profanity policy flags the quoted and plural forms and the added words', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  for (const text of ["Reporto al usuario: me llamó 'puta de mierda' en el chat de voz", 'Putos maricones, fuera de aquí', 'vai se fuder vcs dois', 'what a shitshow']) {
    assert.ok(score(text) >= profanity.defaultThreshold, `${text}: ${score(text)}`);
  }
  for (const text of ['Spikes on every fence please.', 'Los anales de la historia', "Shitake risotto, the chef's 'special'"]) {
    assert.ok(score(text) < profanity.defaultThreshold, `${text}: ${score(text)}`);
  }
});

test('a swear word written with asterisks is read as the listed word it stands for', () => {
  loadModels();
  assert.equal(maskedProfanityEntry('p*tain')?.word, 'putain');
  assert.equal(maskedProfanityEntry('a**hole')?.word, 'asshole');
  assert.ok(maskedProfanityEntry('f**k') !== undefined);
  // Emphasis, a footnote, one letter, and a mask that stands for no listed word.
  for (const raw of ['*sigh*', 'free*', 'f***', 'p*ssw*rd']) assert.equal(maskedProfanityEntry(raw), undefined, raw);
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  assert.ok(score('Honestly f**k this mod team') >= profanity.defaultThreshold);
  assert.ok(score('Kids eat free* on Sundays, *terms apply*') < profanity.defaultThreshold);
});
