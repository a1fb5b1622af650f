import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileWordlist, damerauLevenshtein, tokenize } from './matcher.ts';

const list = compileWordlist(['ass', 'Free', 'kill yourself', 'shit', 'bitch', 'idiot', '1488', 'fuck', 'buy now', 'scam']);

function words(text: string, mode: 'exact' | 'stem' | 'similar' = 'exact', threshold?: number): string[] {
  return list.match(text, mode, threshold).map((found) => `${found.word}=${found.match}`);
}

test('no Scunthorpe: entries match whole tokens only', () => {
  assert.deepEqual(words('The class assistant passes the bass to Cassandra in Essex.'), []);
  assert.deepEqual(words('freedom, carefree, scampi, shitake'), []);
  assert.deepEqual(words('you ass!'), ['ass=ass']);
});

test('case, spans and the entry as given', () => {
  const [found] = list.match('Totally FREE!', 'exact');
  assert.deepEqual(found, { word: 'Free', match: 'FREE', span: [8, 12], probability: 1 });
});

test('separators inside a word', () => {
  assert.deepEqual(words('get it f.r.e.e or f r e e or f-r-e-e or f_r_e_e'), ['Free=f.r.e.e', 'Free=f r e e', 'Free=f-r-e-e', 'Free=f_r_e_e']);
  assert.deepEqual(words('sc-am alert'), ['scam=sc-am']);
  // Separate ordinary words around a single letter are not glued together.
  assert.deepEqual(words('a b, c d e'), []);
});

test('repeated letters', () => {
  assert.deepEqual(words('freeeeee stuff, shiiiiit, asssss'), ['Free=freeeeee', 'shit=shiiiiit', 'ass=asssss']);
});

test('leetspeak', () => {
  assert.deepEqual(words('sh!t $hit 5h1t a$$ @ss 1d10t fr33'), [
    'shit=sh!t', 'shit=$hit', 'shit=5h1t', 'ass=a$$', 'ass=@ss', 'idiot=1d10t', 'Free=fr33',
  ]);
  // Leet needs letters in the token: prices and plain numbers are not words.
  assert.deepEqual(words('costs $5 or 55 or 3.50'), []);
  assert.deepEqual(words('hello! wow!!'), []);
});

test('lookalike letters: Cyrillic, Greek, fullwidth, accents, invisibles, combining marks', () => {
  assert.deepEqual(words('ｆｒｅｅ'), ['Free=ｆｒｅｅ']);
  assert.deepEqual(words('frее'), ['Free=frее']); // Cyrillic е
  assert.deepEqual(words('ѕсаm'), ['scam=ѕсаm']); // Cyrillic ѕ с а
  assert.deepEqual(words('ΑSS'), ['ass=ΑSS']); // Greek Alpha
  assert.deepEqual(words('fréé'), ['Free=fréé']);
  assert.deepEqual(words('f\u200buck'), ['fuck=f\u200buck']);
  assert.deepEqual(words('f\u0338u\u0338c\u0338k\u0338'), ['fuck=f\u0338u\u0338c\u0338k\u0338']);
  assert.deepEqual(words('𝐟𝐫𝐞𝐞 stuff'), ['Free=𝐟𝐫𝐞𝐞']);
});

test('multi-word entries', () => {
  assert.deepEqual(words('just k1ll   your5elf'), ['kill yourself=k1ll   your5elf']);
  assert.deepEqual(words('BUY NOW!!'), ['buy now=BUY NOW']);
  assert.deepEqual(words('kill the yourself'), []);
  assert.deepEqual(words('buying now'), []);
});

test('numeric entries', () => {
  assert.deepEqual(words('1488 forever, but not 14880'), ['1488=1488']);
});

test('stem mode adds plurals and tenses', () => {
  assert.deepEqual(words('you idiots', 'exact'), []);
  assert.deepEqual(words('you idiots', 'stem'), ['idiot=idiots']);
  assert.deepEqual(words('buying now', 'stem'), ['buy now=buying now']);
  assert.deepEqual(words('scammed again', 'stem'), ['scam=scammed']);
});

test('similar mode uses normalized Damerau-Levenshtein within the threshold', () => {
  assert.deepEqual(words('biitch', 'exact'), []);
  assert.deepEqual(words('biitch', 'similar'), ['bitch=biitch']);
  assert.deepEqual(words('bicth', 'similar'), ['bitch=bicth']);
  assert.deepEqual(words('biitch', 'similar', 0.1), []);
  // Entries shorter than five letters are never matched by similarity.
  assert.deepEqual(words('scan', 'similar'), []);
  const [found] = list.match('biitch', 'similar');
  assert.equal(found!.probability, 0.833);
});

test('damerauLevenshtein counts a transposition as one edit', () => {
  assert.equal(damerauLevenshtein('bitch', 'bicth'), 1);
  assert.equal(damerauLevenshtein('kitten', 'sitting'), 3);
  assert.equal(damerauLevenshtein('abc', 'abc'), 0);
  assert.equal(damerauLevenshtein('abcdef', 'uvwxyz', 2), 3);
});

test('tokenize gives UTF-16 spans', () => {
  const tokens = tokenize('😀 héllo wörld');
  assert.deepEqual(tokens.map((token) => [token.raw, token.start, token.end]), [['hello', 3, 8], ['world', 9, 14]]);
});

test('a large list stays exact', () => {
  const many = Array.from({ length: 20_000 }, (_, index) => `word${index.toString(36)}x`);
  const big = compileWordlist([...many, 'needle']);
  assert.equal(big.size, 20_001);
  assert.deepEqual(big.match('a needle in a haystack', 'similar').map((found) => found.word), ['needle']);
  assert.deepEqual(big.match('word1ax and nothing', 'exact').map((found) => found.word), ['word1ax']);
});

test('tens of thousands of matches in one text are chosen in linear time', () => {
  const n = 100_000;
  const withPhrase = compileWordlist(['scam', 'a a', 'buy now']);
  for (const unit of ['scam ', 'a.', 'A ', 'buy now ', 's.c.a.m, ']) {
    const text = unit.repeat(Math.ceil(n / unit.length));
    const started = performance.now();
    const found = withPhrase.match(text, 'exact');
    const ms = performance.now() - started;
    // Each candidate was compared with every match kept before it (0.45–2.5 s).
    assert.ok(ms < 500, `${JSON.stringify(unit)}: ${ms.toFixed(0)} ms`);
    assert.ok(found.length > 1000, `${JSON.stringify(unit)}: ${found.length}`);
  }
});

test('overlapping candidates: the longest, then the most certain, then the first', () => {
  const phrases = compileWordlist(['kill', 'kill yourself', 'yourself now', 'free', 'f r e e']);
  assert.deepEqual(
    phrases.match('kill yourself now', 'exact').map((found) => [found.word, found.span]),
    [['kill yourself', [0, 13]]],
  );
  assert.deepEqual(
    phrases.match('go kill kill yourself now, free f r e e', 'exact').map((found) => [found.word, found.match]),
    [['kill', 'kill'], ['kill yourself', 'kill yourself'], ['free', 'free'], ['f r e e', 'f r e e']],
  );
});
