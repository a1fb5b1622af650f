import { test } from 'node:test';
import assert from 'node:assert/strict';
import { innocentAt, innocentEverywhere, wordAround } from './profanity-senses.ts';
import { classifierPolicies, loadModels } from './index.ts';
import { isDoubleSPluralGuess } from './lexicons.ts';
import { obscenityScore } from '../policies/profanity.ts';
import type { FieldResult } from '../policy.ts';

function at(text: string, word: string): boolean {
  const start = text.indexOf(word);
  assert.ok(start >= 0, `"${word}" is in the sentence`);
  return innocentAt(text, start, start + word.length);
}

test('a listed word is innocent only where what stands beside it says so', () => {
  assert.equal(at('Our old cock crows at four every morning, the hens are quieter.', 'cock'), true);
  assert.equal(at('suck my cock', 'cock'), false);
  assert.equal(at('Loved the old Dick Van Dyke films as a kid.', 'Dick'), true);
  assert.equal(at('Loved the old Dick Van Dyke films as a kid.', 'Dyke'), true);
  assert.equal(at('Dick Van Dyke is on tonight', 'Dick'), false, 'a capital at the start of a sentence proves nothing');
  assert.equal(at('what a dick move', 'dick'), false);
  assert.equal(at('Die Suppe ist viel zu dick geworden.', 'dick'), true);
  assert.equal(at('We drove from Atlanta to Cumming for the fair.', 'Cumming'), true);
  assert.equal(at('Wir fahren nach Fucking, das Dorf in Österreich.', 'Fucking'), true);
  assert.equal(at('Fucking typical.', 'Fucking'), false);
  assert.equal(at('Two blue tits at the feeder this morning!', 'tits'), true);
  assert.equal(at('nice tits', 'tits'), false);
  assert.equal(at('Ma chatte a eu quatre chatons cette nuit.', 'chatte'), true);
  assert.equal(at('The door knob came off in my hand.', 'knob'), true);
  assert.equal(at('Fiquei uma hora na bicha do supermercado.', 'bicha'), true);
  assert.equal(at('sai daqui sua bicha', 'bicha'), false);
  assert.equal(at('Our bitch whelped six puppies last night.', 'bitch'), true);
  assert.equal(at('shut up bitch', 'bitch'), false);
});

test('innocentEverywhere needs every plain occurrence innocent', () => {
  assert.equal(innocentEverywhere('cock', 'The cock woke the whole coop, the hens too.'), true);
  assert.equal(innocentEverywhere('dick', 'Loved Dick Van Dyke in it, but you are a dick.'), false);
  assert.equal(innocentEverywhere('dick', 'Loved Dick Van Dyke in it.'), true);
  assert.equal(innocentEverywhere('fucking', 'This fucking game.'), false);
  assert.equal(innocentEverywhere('bitch', 'the b1tch next door'), false, 'no plain occurrence');
  assert.equal(innocentEverywhere('shit', 'Holy shit, the hens.'), false, 'a word with no innocent sense');
});

test('wordAround widens a partial match to the whole word', () => {
  const text = 'Visit Scunthorpe soon';
  assert.deepEqual(wordAround(text, 7, 9), { start: 6, end: 16 });
});

test('"assess" is no plural of a listed word, "asses" is', () => {
  assert.equal(isDoubleSPluralGuess('assess'), true);
  assert.equal(isDoubleSPluralGuess('asses'), false);
  assert.equal(isDoubleSPluralGuess('shit'), false);
});

test('the profanity policy counts the rude sense and leaves the innocent one alone', () => {
  loadModels();
  const profanity = classifierPolicies.find((p) => p.id === 'profanity')!;
  const score = (text: string) =>
    (profanity.evaluate(text, { id: 'profanity', flag: true }, { fieldKey: null, original: text, analyses: new Map() }) as FieldResult).probability;
  for (const text of [
    'Our cock wakes the street at four every morning, the hens are quieter.',
    'Loved the old Dick Van Dyke films as a kid.',
    'We drove from Atlanta to Cumming for the fair.',
    'Two blue tits at the feeder this morning!',
    'Ma chatte a eu quatre chatons cette nuit.',
    'Fiquei uma hora na bicha do supermercado.',
    'We need to assess the damage first.',
  ]) assert.ok(score(text) < profanity.defaultThreshold, `${text}: ${score(text)}`);
  for (const text of ['suck my cock', 'Fucking typical.', 'fucking hell', 'shut up bitch', 'sai daqui sua bicha']) {
    assert.ok(score(text) >= profanity.defaultThreshold, `${text}: ${score(text)}`);
  }
});

test('obscenity matches on a name are not counted, the rude word still is', () => {
  assert.equal(obscenityScore('Two goals from Dick Hollis on Saturday.'), 0);
  assert.ok(obscenityScore('he is such a dick') >= 0.8);
});
