import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openaiHalf, openaiSamples } from '../../../training/openai-split.ts';

test('the OpenAI set splits by text into two halves of about equal size, the same on every run', () => {
  const samples = openaiSamples();
  const halves = samples.map((s) => openaiHalf(s.prompt));
  const dev = halves.filter((h) => h === 'dev').length;
  assert.ok(dev > samples.length * 0.45 && dev < samples.length * 0.55, `dev half ${dev} of ${samples.length}`);
  assert.deepEqual(samples.map((s) => openaiHalf(s.prompt)), halves);
  assert.equal(openaiHalf('the same text'), openaiHalf('the same text'));
  assert.notEqual(new Set(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map(openaiHalf)).size, 1);
});
