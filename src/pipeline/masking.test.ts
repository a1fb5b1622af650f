import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyReplacements } from './masking.ts';

test('replaces spans and leaves the rest untouched', () => {
  const text = 'mail jane@example.com or call 555-1234';
  const result = applyReplacements(text, [
    { match: '555-1234', probability: 1, span: [30, 38], replacement: '{{ phone hidden }}' },
    { match: 'jane@example.com', probability: 1, span: [5, 21], replacement: '{{ email hidden }}' },
  ]);
  assert.equal(result.text, 'mail {{ email hidden }} or call {{ phone hidden }}');
  assert.equal(result.applied, true);
});

test('overlapping matches: the earliest, longest span wins', () => {
  const text = 'visit https://example.com/a now';
  const result = applyReplacements(text, [
    { match: 'example.com', probability: 1, span: [14, 25], replacement: '[domain]' },
    { match: 'https://example.com/a', probability: 1, span: [6, 27], replacement: '[link]' },
  ]);
  assert.equal(result.text, 'visit [link] now');
});

test('no matches: the same text, nothing applied', () => {
  assert.deepEqual(applyReplacements('hello', []), { text: 'hello', applied: false });
});
