import { test } from 'node:test';
import assert from 'node:assert/strict';
import { languageSupport } from './language-support.ts';

test('text in the models\' languages is supported', () => {
  for (const text of [
    'I will find you after the game and you will regret it',
    'Te voy a buscar esta noche y no vas a tener donde esconderte',
    'Eu vou te matar, seu idiota, você não sabe com quem está falando',
    'Je vais te retrouver ce soir et tu vas le regretter, connard',
    'Ich bringe dich um, du Arschloch, wenn ich dich erwische',
  ])
    assert.equal(languageSupport(text).status, 'supported', text);
});

test('other languages and scripts are outside, with a guess', () => {
  assert.deepEqual(languageSupport("Ti ammazzo stasera, non hai scampo: questo è solo l'inizio e lo sai anche tu"), { status: 'outside', language: 'it' });
  assert.deepEqual(languageSupport('Ik maak je af als ik je vanavond zie, dat is een belofte'), { status: 'outside', language: 'nl' });
  assert.deepEqual(languageSupport('Я тебя найду сегодня вечером, и тебе не поздоровится'), { status: 'outside', language: 'cyrillic' });
  assert.deepEqual(languageSupport('今晚我会找到你，你会后悔的'), { status: 'outside', language: 'han' });
});

test('short or unclear text is not called outside', () => {
  assert.equal(languageSupport('ok').status, 'supported');
  assert.equal(languageSupport('lol 😂😂').status, 'supported');
  assert.equal(languageSupport('Pizza Margherita 8 €').status, 'supported');
});
