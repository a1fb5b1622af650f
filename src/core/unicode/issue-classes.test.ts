/**
 * Classes the analyzer once got wrong: U+0000 and lone surrogates, UTS #39 Restricted Latin
 * lookalikes inside ASCII words, Greek letters as scientific prefixes, zalgo stacks with
 * invisible marks, and lookalike words that also hide a character.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { analyzeUnicode, type UnicodeSignal } from './index.ts';

function expectFinding(text: string, signals: UnicodeSignal[], normalized: string): void {
  const analysis = analyzeUnicode(text);
  assert.equal(analysis.spoofed, true, JSON.stringify(text));
  for (const signal of signals) assert.equal(analysis.signals[signal], true, `${JSON.stringify(text)}: ${signal}`);
  assert.equal(analysis.normalized, normalized, JSON.stringify(text));
  assert.equal(analyzeUnicode(analysis.normalized).spoofed, false, `normalizing ${JSON.stringify(text)} leaves nothing to find`);
}

function expectGenuine(text: string): void {
  const analysis = analyzeUnicode(text);
  assert.equal(analysis.spoofed, false, `${JSON.stringify(text)}: ${JSON.stringify(analysis.findings)}`);
  assert.equal(analysis.normalized, text);
  assert.equal(analysis.changed, false);
}

test('U+0000 inside a word, at its start and at its end is illegal and removed; the highlight points at it', () => {
  for (const [text, clean] of [
    ['pass\u0000word', 'password'],
    ['\u0000password', 'password'],
    ['password\u0000', 'password'],
    ['my pass\u0000word here', 'my password here'],
    ['a \u0000 b', 'a  b'],
  ] as const) {
    expectFinding(text, ['illegal'], clean);
    const finding = analyzeUnicode(text).findings[0]!;
    const highlight = finding.highlights.find((h) => h.signal === 'illegal')!;
    assert.equal(text.slice(highlight.start, highlight.end), '\u0000');
    assert.ok(finding.codePoints.includes('U+0000'));
  }
});

test('a lone surrogate, high or low, anywhere, is illegal and removed', () => {
  expectFinding('\ud800', ['illegal'], '');
  expectFinding('pass\ud800word', ['illegal'], 'password');
  expectFinding('\udc00start', ['illegal'], 'start');
  expectFinding('end\udbff', ['illegal'], 'end');
  // A whole emoji is two surrogates that belong together: genuine.
  expectGenuine('party 🎉 time');
});

test('Restricted Latin letters whose skeleton is ASCII make a confusable word, folded to ASCII', () => {
  expectFinding('p\u0251ypal', ['confusable_word'], 'paypal'); // IPA alpha
  expectFinding('Log in to your p\u0251yp\u0251l account', ['confusable_word'], 'Log in to your paypal account');
  expectFinding('\ufb01rst prize', ['confusable_word'], 'first prize'); // fi ligature
  expectFinding('free \u0261ift card', ['confusable_word'], 'free gift card'); // script g
  expectFinding('o\ufb00er', ['confusable_word'], 'offer'); // ff ligature
  const [finding] = analyzeUnicode('p\u0251ypal').findings;
  assert.deepEqual(finding!.signals, ['confusable_word']);
  assert.deepEqual(finding!.scripts, ['Latin']);
  assert.equal(finding!.looksLike, 'paypal');
});

test('a Restricted letter mixed with a lookalike of another script folds too', () => {
  expectFinding('p\u0430yp\u0251l', ['mixed_script'], 'paypal');
});

test('Latin letters of living orthographies are not lookalikes', () => {
  expectGenuine('Hawaiʻi and Oʻzbekiston'); // okina, Allowed
  expectGenuine('Ægir, Straße, ısıtır, øl, þorn'); // Allowed letters
  expectGenuine('ɛ ɔ ŋ: Akan wɔ hɔ, Ewe ŋkɔ'); // Allowed African letters
  // ɑ is an ordinary letter in text written in an extended Latin orthography (Baoulé uses ɛ and ɔ).
  expectGenuine('Sran kwlaa ɔ nɑn i wun ti ɛ');
  expectGenuine('Mayan saltillo: Kꞌicheꞌ and jɑ'); // saltillo marks the orthography
  expectGenuine('ɑ'); // a single letter is never judged
});

test('Greek letters as scientific and technical prefixes or symbols are left alone', () => {
  for (const text of [
    'α-helix',
    'The α-helix and the β-sheet are secondary structures.',
    'She takes a β-blocker.',
    'γ-rays are more penetrating than α-particles.',
    'Δ9-THC',
    'the π-calculus',
    'Let θ be the angle; α = 0.05',
    'κ-casein, λ-phage, μ-opioid, ω-3 fatty acids',
    'the resistance is 47 Ω',
    'α',
    'ο', // a lone omicron looks like o, and is still a lone letter
  ]) {
    expectGenuine(text);
  }
});

test('a disguised word of two or more Greek letters is still caught', () => {
  expectFinding('click here to get your free \u03bf\u03bd', ['confusable_word'], 'click here to get your free ov');
});

test('zalgo: a letter with three or more marks normalizes to the bare letter, invisible marks included', () => {
  expectFinding('z\u0300\u0301\u034f\u0302o', ['zalgo'], 'zo');
  expectFinding('z\u034f\u0300\u0301o', ['zalgo'], 'zo');
  expectFinding('he\u0300\u034f\u0301llo there', ['zalgo'], 'hello there');
  expectFinding('a\u0300\u0301\u0302\ufe0fb', ['zalgo'], 'ab'); // a variation selector inside the stack
  // Every letter marked once, one mark invisible: zalgo with the rest of the message.
  expectFinding('p\u0358l\u036be\u034ea\u031as\u0364e b\u0308o\u034fy\u0311 n\u0319o\u0360w\u0321', ['zalgo'], 'please boy now');
  // A lone CGJ in a word is an invisible character, not zalgo.
  const lone = analyzeUnicode('fr\u034fee');
  assert.deepEqual(lone.findings[0]!.signals, ['invisible']);
  assert.equal(lone.normalized, 'free');
  // Orthographic stacks stay.
  expectGenuine('Tie\u0302\u0301ng Vie\u0323\u0302t');
});

test('a lookalike word that also hides a character is restored exactly', () => {
  // Coptic ⲓ and Arabic ﻫ are complex-script letters, but here they pose as Latin letters: the joiner joins nothing.
  expectFinding('please verify your K\u200b\u2c93ll now', ['mixed_script', 'invisible'], 'please verify your Kill now');
  expectFinding('Go to P\u200c\ufeebrn.com today!', ['mixed_script', 'invisible'], 'Go to Porn.com today!');
  // Arabic with ZWNJ stays genuine.
  expectGenuine('می‌خواهم به خانه بروم');
});

test('in foreign text, a word only Latin can spell is restored to Latin', () => {
  expectFinding('Это U\u0455\u0435 здесь', ['mixed_script'], 'Это Use здесь');
});
