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
  assert.equal(maskedProfanityEntry('b*tch')?.word, 'bitch');
  assert.equal(maskedProfanityEntry('wh*re')?.word, 'whore');
  // The mildest listed word the mask fits: "fack" (mild) rather than "fuck" (strong).
  assert.equal(maskedProfanityEntry('f**k')?.word, 'fack');
  // Letters that are a listed word alone ("ptain", "shit") are the lexicon's, which counts them once already.
  for (const raw of ['p*tain', 'shit**']) assert.equal(maskedProfanityEntry(raw), undefined, raw);
  // Emphasis, a footnote, one letter, and a mask that stands for no listed word.
  for (const raw of ['*sigh*', 'free*', 'f***', 'p*ssw*rd']) assert.equal(maskedProfanityEntry(raw), undefined, raw);
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  assert.ok(score('Honestly f**k this mod team') >= profanity.defaultThreshold);
  assert.ok(score('p*tain, encore en retard') >= profanity.defaultThreshold);
  assert.equal(score('shit** happens'), score('shit happens'));
  assert.ok(score('Kids eat free* on Sundays, *terms apply*') < profanity.defaultThreshold);
  // The closing stars of Markdown bold are not a mask ("cool**" would read "coolie").
  for (const text of ['**So cool**', 'That works **for me**', "**Let's go** team"]) assert.ok(score(text) < profanity.defaultThreshold, text);
});

test('long runs of letters, stars and quote marks are read in linear time', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const n = 100_000;
  for (const text of ['a'.repeat(n - 2) + ' *', 'f' + '*'.repeat(n) + 'k', '*a' + '*'.repeat(n) + 'a*', '*'.repeat(n) + 'a**', "'a" + "'".repeat(n) + 'a', 'a*'.repeat(n / 2)]) {
    const started = performance.now();
    profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() });
    // Each took 3–6 s when the patterns backtracked; a linear reading takes a few milliseconds.
    assert.ok(performance.now() - started < 500, `${text.slice(0, 12)}…: ${performance.now() - started} ms`);
  }
});
