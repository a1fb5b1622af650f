import { test } from 'node:test';
import assert from 'node:assert/strict';
import { computeFeatures, tokensOf } from './features.ts';
import { loadModels } from './models.ts';
import { seededIntegers } from '../../lib/seeded-random.ts';

test('texts of 100,000 characters are tokenized and featurized in linear time', () => {
  loadModels();
  computeFeatures('A sentence to warm the featurizer up. And one more.');
  const n = 100_000;
  const repeated = (unit: string) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  // The e-mail branch of the token pattern read the rest of a run of [letters digits . _ % + -] from each of its
  // starts (4.5–5 s each), and the domain pattern the rest of a run of [a-z0-9-] from each word boundary in it (3.9 s).
  // Joining spelled-out words spliced each run out of the token list, moving every token after it.
  for (const text of [repeated('a.'), repeated('.'), repeated('a-') + '.c', repeated('1-'), repeated('%'), repeated('a_'), repeated('#a.'), repeated('a.b@'), 'a'.repeat(n) + '@b', repeated('a a a 1 '), repeated('x y z 12 ')]) {
    const started = performance.now();
    computeFeatures(text);
    const ms = performance.now() - started;
    // 1,500 ms, not less: featurizing 100,000 characters takes 100–300 ms on a loaded two-core host.
    assert.ok(ms < 1500, `${JSON.stringify(text.slice(0, 12))}…: ${ms.toFixed(0)} ms`);
  }
});

test('one sentence of 200,000 tokens is featurized (its tokens are not passed as call arguments)', () => {
  loadModels();
  // push(...tokens) of one sentence this long threw "Maximum call stack size exceeded".
  assert.doesNotThrow(() => computeFeatures('go '.repeat(200_000)));
});

test('tokens: e-mail addresses, also where a token ends inside the address', () => {
  assert.deepEqual(tokensOf('write to jane.doe@example.co.uk today'), ['write', 'to', '__email__', 'today']);
  assert.deepEqual(tokensOf('a.b@c.de'), ['__email__']);
  assert.deepEqual(tokensOf('--x_y%z+1@host-1.example.com'), ['__email__']);
  // A hashtag, a masked word and a word with an apostrophe end inside the run before the "@": the address starts there.
  assert.deepEqual(tokensOf('#a.b@c.de'), ['a', '__email__']);
  assert.deepEqual(tokensOf('f*ck.x@y.com hi'), ['fck', '__email__', 'hi']);
  assert.deepEqual(tokensOf("ab'c.d@e.com"), ["ab'c", '__email__']);
  assert.deepEqual(tokensOf('@a.b@c.de'), ['__user__', '__email__']);
  // A link that starts there comes first.
  assert.deepEqual(tokensOf('#a.http://x@y.com'), ['a', '__url__']);
  assert.deepEqual(tokensOf('x.www.example.com'), ['x', '__url__']);
  // No address: the words of the run (single letters joined), and the "@" read as a letter.
  assert.deepEqual(tokensOf('a.b.c d@e'), ['abc', 'dae']);
  assert.deepEqual(tokensOf('#a.b@c'), ['a', 'bac']);
  assert.deepEqual(tokensOf('x@y.z'), ['xay', 'z']);
});

test('runs of three or more single letters are joined into one token', () => {
  assert.deepEqual(tokensOf('k i l l you'), ['kill', 'you']);
  assert.deepEqual(tokensOf('a b 1 c d e'), ['a', 'b', '__num__', 'cde']);
  assert.deepEqual(tokensOf('a b c. d e f'), ['abcdef']);
  assert.deepEqual(tokensOf('I am a b c'), ['i', 'am', 'abc']);
  assert.deepEqual(tokensOf('x y z 12 p q r s'), ['xyz', '__num__', 'pqrs']);
  assert.deepEqual(tokensOf('a a a 1 '.repeat(3)), ['aaa', '__num__', 'aaa', '__num__', 'aaa', '__num__']);
});

test('a bare domain counts where the original pattern found one', () => {
  loadModels();
  const original = /\b[a-z0-9-]{2,}\.(?:com|net|org|info|biz|ly|io|co|tk|xyz|me|us|uk)\b/;
  const counted = (text: string) => computeFeatures(text).urlCount;
  assert.equal(counted('visit shop-now.com for more'), 1);
  assert.equal(counted('ab.com'), 1);
  assert.equal(counted('a.com'), 0);
  assert.equal(counted('--.com'), 0);
  assert.equal(counted('_ab.com'), 0);
  assert.equal(counted('ab.community'), 0);
  assert.equal(counted('éab.co'), 1);
  const pieces = ['a', 'b', '1', '-', '_', '.', '.com', '.co', 'm', 'uk', ' ', 'é', 'x.'];
  const random = seededIntegers(7);
  for (let k = 0; k < 2000; k++) {
    let text = '';
    for (let i = 1 + random(8); i > 0; i--) text += pieces[random(pieces.length)];
    assert.equal(counted(text), original.test(text.normalize('NFKC').toLowerCase()) ? 1 : 0, JSON.stringify(text));
  }
});
