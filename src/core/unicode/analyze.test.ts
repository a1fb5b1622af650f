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
