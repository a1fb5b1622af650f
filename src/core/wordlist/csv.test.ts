import { test } from 'node:test';
import assert from 'node:assert/strict';
import { wordsFromCsv, wordsToCsv } from './csv.ts';

test('wordsFromCsv: first column, quotes, CRLF, header and blank lines', () => {
  const csv = '\uFEFFword,notes\r\nspam,x\r\n"buy, now",y\n"say ""hi"""\n\n  scam  \n';
  assert.deepEqual(wordsFromCsv(csv), ['spam', 'buy, now', 'say "hi"', 'scam']);
  assert.deepEqual(wordsFromCsv('alpha\nbeta'), ['alpha', 'beta']);
  assert.deepEqual(wordsFromCsv(''), []);
});

test('wordsToCsv reads back to the same words', () => {
  const words = ['plain', 'with, comma', 'with "quote"', 'line\nbreak'];
  assert.ok(wordsToCsv(words).startsWith('word\r\n'));
  assert.deepEqual(wordsFromCsv(wordsToCsv(words)), words);
});
