import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { PolicyContext, PolicySettings } from '../policy.ts';
import { analyzeUnicode } from './index.ts';
import { parseUnicodeSettings, unicodeSpoofingPolicy, UNICODE_ANALYSIS_KEY } from './policy.ts';

function ctx(text: string, analyses = new Map<string, unknown>()): PolicyContext {
  return { fieldKey: null, original: text, analyses };
}

function evaluate(text: string, settings: PolicySettings) {
  const result = unicodeSpoofingPolicy.evaluate(text, settings, ctx(text));
  if (result instanceof Promise) throw new Error('policy must be synchronous');
  return result;
}

test('policy identity', () => {
  assert.equal(unicodeSpoofingPolicy.id, 'unicode_spoofing');
  assert.equal(unicodeSpoofingPolicy.type, 'classifier');
  assert.ok(unicodeSpoofingPolicy.severity > 0 && unicodeSpoofingPolicy.severity <= 1);
});

test('clean text scores 0 with five unflagged labels', () => {
  const result = evaluate('hello world', { id: 'unicode_spoofing', flag: true });
  assert.equal(result.probability, 0);
  assert.equal(result.flagged, false);
  assert.deepEqual(result.labels?.map((l) => l.id), ['mixed_script', 'confusable_word', 'invisible', 'zalgo', 'illegal']);
  assert.ok(result.labels?.every((l) => l.probability === 0 && l.flagged === false));
  assert.deepEqual(result.data, { counts: { words_total: 2, words_affected: 0 }, sample_words: [] });
});

test('a spoofed word flags the field and its signal label', () => {
  const result = evaluate('log in to p\u0430ypal now', { id: 'unicode_spoofing', flag: true });
  assert.equal(result.probability, 1);
  assert.equal(result.flagged, true);
  const mixed = result.labels?.find((l) => l.id === 'mixed_script');
  assert.deepEqual(mixed, { id: 'mixed_script', probability: 1, flagged: true });
  assert.deepEqual(result.data, { counts: { words_total: 5, words_affected: 1 }, sample_words: ['p\u0430ypal'] });
});

test('shadow mode keeps probability 1 but never flags', () => {
  const result = evaluate('he\u200bllo', { id: 'unicode_spoofing', flag: true, mode: 'shadow' });
  assert.equal(result.probability, 1);
  assert.equal(result.flagged, false);
  assert.ok(result.labels?.every((l) => l.flagged === false));
});

test('flag:false never flags', () => {
  const result = evaluate('he\u200bllo', { id: 'unicode_spoofing', flag: false });
  assert.equal(result.flagged, false);
});

test('a disabled signal is reported but does not flag', () => {
  const result = evaluate('he\u200bllo', { id: 'unicode_spoofing', flag: true, signals: { invisible: false } });
  assert.equal(result.probability, 0);
  assert.equal(result.flagged, false);
  assert.deepEqual(result.labels?.find((l) => l.id === 'invisible'), { id: 'invisible', probability: 1, flagged: false });
});

test('reuses the shared analysis from the context', () => {
  const analyses = new Map<string, unknown>();
  const shared = analyzeUnicode('bad\u0007');
  analyses.set(UNICODE_ANALYSIS_KEY, shared);
  const result = unicodeSpoofingPolicy.evaluate('different text', { id: 'unicode_spoofing', flag: true }, ctx('different text', analyses));
  assert.equal((result as { probability: number }).probability, 1);
});

test('stores its analysis for others when none was shared', () => {
  const analyses = new Map<string, unknown>();
  unicodeSpoofingPolicy.evaluate('he\u200bllo', { id: 'unicode_spoofing', flag: true }, ctx('he\u200bllo', analyses));
  assert.ok(analyses.has(UNICODE_ANALYSIS_KEY));
});

test('mergeData sums counts and caps samples at 10', () => {
  const field = (n: number, words: string[]) => ({ counts: { words_total: n, words_affected: words.length }, sample_words: words });
  const merged = unicodeSpoofingPolicy.mergeData!([
    field(10, ['a1', 'a2', 'a3', 'a4', 'a5', 'a6']),
    undefined,
    field(5, ['b1', 'b2', 'b3', 'b4', 'b5', 'b6']),
  ]);
  assert.deepEqual(merged?.counts, { words_total: 15, words_affected: 12 });
  assert.equal((merged?.sample_words as string[]).length, 10);
  assert.equal(unicodeSpoofingPolicy.mergeData!([undefined]), undefined);
});

test('parseUnicodeSettings accepts valid settings and rejects bad ones', () => {
  const ok = parseUnicodeSettings({ id: 'unicode_spoofing', flag: true, mode: 'shadow', signals: { zalgo: false } });
  assert.deepEqual(ok, { ok: true, value: { id: 'unicode_spoofing', flag: true, mode: 'shadow', signals: { zalgo: false } } });
  const bad = parseUnicodeSettings({ id: 'unicode_spoofing', flag: 'yes', mode: 'loud', signals: { zalgoo: true }, extra: 1 });
  assert.equal(bad.ok, false);
  if (!bad.ok) {
    const paths = bad.issues.map((issue) => issue.path).sort();
    assert.deepEqual(paths, ['extra', 'flag', 'mode', 'signals.zalgoo']);
  }
  assert.equal(parseUnicodeSettings(null).ok, false);
  assert.equal(parseUnicodeSettings({ id: 'other', flag: true }).ok, false);
});
