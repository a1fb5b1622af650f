import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeUnicode, UNICODE_SIGNALS, UNICODE_VERSION } from './index.ts';

test('exports the five signals and the Unicode version', () => {
  assert.deepEqual([...UNICODE_SIGNALS], ['mixed_script', 'confusable_word', 'invisible', 'zalgo', 'illegal']);
  assert.equal(UNICODE_VERSION, '17.0.0');
});

test('plain ASCII takes the fast path and returns the same string', () => {
  const text = 'Hello, world! 42 times.';
  const analysis = analyzeUnicode(text);
  assert.equal(analysis.spoofed, false);
  assert.equal(analysis.wordsTotal, 4);
  assert.equal(analysis.normalized, text);
  assert.equal(analysis.changed, false);
  assert.deepEqual(analysis.findings, []);
});

test('counts words in non-ASCII text', () => {
  assert.equal(analyzeUnicode('Привет, мир! Как дела?').wordsTotal, 4);
  assert.equal(analyzeUnicode('').wordsTotal, 0);
});

test('a finding reports word, UTF-16 offset, code points, scripts and what it looks like', () => {
  const text = '😀 pay p\u0430ypal';
  const [finding] = analyzeUnicode(text).findings;
  assert.ok(finding);
  assert.equal(finding.word, 'p\u0430ypal');
  assert.equal(finding.offset, 7); // the emoji is two UTF-16 code units
  assert.equal(text.slice(finding.offset, finding.offset + finding.word.length), finding.word);
  assert.deepEqual(finding.signals, ['mixed_script']);
  assert.deepEqual(finding.scripts, ['Latin', 'Cyrillic']);
  assert.equal(finding.looksLike, 'paypal');
  assert.deepEqual(finding.codePoints, ['U+0070', 'U+0430', 'U+0079', 'U+0070', 'U+0061', 'U+006C']);
  assert.deepEqual(finding.highlights, [{ start: 8, end: 9, signal: 'mixed_script' }]);
});

test('an invisible character is highlighted with one character on each side', () => {
  const text = 'say he\u200bllo';
  const analysis = analyzeUnicode(text);
  const [finding] = analysis.findings;
  assert.ok(finding);
  assert.deepEqual(finding.highlights, [{ start: 5, end: 8, signal: 'invisible' }]);
  assert.equal(text.slice(5, 8), 'e\u200bl');
  assert.equal(analysis.wordsAffected, 1);
  assert.equal(analysis.wordsTotal, 2);
});

test('only disguised words are rewritten; everything else passes through unchanged', () => {
  const text = 'Grüße 👋🏽, Привет — f\u200bree ｇｉｆｔ!\tSee Αθήνα.';
  const analysis = analyzeUnicode(text);
  assert.equal(analysis.normalized, 'Grüße 👋🏽, Привет — free gift!\tSee Αθήνα.');
  assert.equal(analysis.changed, true);
  assert.deepEqual(
    analysis.findings.map((f) => f.word),
    ['f\u200bree', 'ｇｉｆｔ'],
  );
});

test('normalization is idempotent on mixed spoofs', () => {
  const text = 'Z\u0334\u0335a\u0336 р\u0430ypal \u202eevil ꜰʀᴇᴇ x\u0007y';
  const once = analyzeUnicode(text).normalized;
  const twice = analyzeUnicode(once);
  assert.equal(twice.normalized, once);
  assert.equal(twice.spoofed, false);
});

test('katakana and Greek are never rewritten into another script', () => {
  for (const text of ['カタカナ ロ エ ニ', 'Η ΚΟΡΗ ΤΟΥ ΦΙΛΟΥ ΜΟΥ', 'Ο κόσμος']) {
    const analysis = analyzeUnicode(text);
    assert.equal(analysis.normalized, text);
  }
});

test('long stretches of invisible characters and nested bidi pairs are analyzed in linear time', () => {
  const n = 100_000;
  const cases = [
    'ب' + '\u200d'.repeat(n) + 'ب',
    '😀' + '\u200d'.repeat(n) + '😀',
    '\u200e'.repeat(n),
    '\u200b'.repeat(n),
    '\ufeff'.repeat(n),
    'a' + '\u200e'.repeat(n) + '1',
    '🏴' + '\u{E0061}'.repeat(n / 2) + '\u{E007F}',
    '🏴' + '\u{E0061}'.repeat(n / 2),
    '\u2066'.repeat(n / 2) + '\u2069'.repeat(n / 2),
    '\u202a'.repeat(n / 2) + '\u202c'.repeat(n / 2),
  ];
  for (const text of cases) {
    const started = performance.now();
    analyzeUnicode(text);
    const ms = performance.now() - started;
    // 6–147 s when every invisible character walked its whole stretch again, and every bidi pair re-read what it wraps.
    assert.ok(ms < 500, `${JSON.stringify(text.slice(0, 4))}…: ${ms.toFixed(0)} ms`);
  }
});

test('invisible characters are judged by the visible characters around their stretch', () => {
  const signals = (text: string) => analyzeUnicode(text).findings.flatMap((finding) => finding.signals);
  // Joiners in emoji sequences and in complex scripts are legitimate, however many there are.
  assert.deepEqual(signals('👩\u200d💻 and 👨\u200d👩\u200d👧'), []);
  assert.deepEqual(signals('😀' + '\u200d'.repeat(50) + '😀'), []);
  assert.deepEqual(signals('بب\u200d\u200d\u200dب'), []);
  // Between two Latin letters they hide something.
  assert.deepEqual(signals('st\u200d\u200d\u200dupid'), ['invisible']);
  assert.equal(analyzeUnicode('st\u200d\u200d\u200dupid').normalized, 'stupid');
  // Direction marks: legitimate except between two letters of a left-to-right alphabet.
  assert.deepEqual(signals('abc\u200e\u200e\u200e123'), []);
  assert.deepEqual(signals('ab\u200e\u200ecd'), ['invisible']);
  // Emoji tag sequences: a black flag, tags, CANCEL TAG; tags elsewhere hide text.
  assert.deepEqual(signals('🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F} Scotland'), []);
  assert.deepEqual(signals('🏴\u{E0067}\u{E0062}\u{E0073}'), ['invisible']);
  assert.deepEqual(signals('sp\u{E0061}\u{E0062}am'), ['invisible']);
  // Bidi isolates: legitimate around right-to-left text or whole words, nested or not.
  assert.deepEqual(signals('say \u2066\u2066مرحبا\u2069\u2069 now'), []);
  assert.deepEqual(signals('pa\u2066\u2066y\u2069\u2069pal'), ['invisible']);
});
