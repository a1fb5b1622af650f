import { test } from 'node:test';
import assert from 'node:assert/strict';
import { detectIpAddresses } from './ip.ts';
import type { DetectedEntity } from './types.ts';

function addresses(text: string): string[] {
  const out: DetectedEntity[] = [];
  detectIpAddresses(text, out);
  return out.map((entity) => text.slice(entity.start, entity.end));
}

test('20,000 IPv6-shaped tokens without digits are read in linear time', () => {
  const text = 'a::b '.repeat(20_000);
  const started = performance.now();
  const found = addresses(text);
  const ms = performance.now() - started;
  // The whole text was searched for an IP cue once per candidate.
  assert.ok(ms < 500, `${ms.toFixed(0)} ms`);
  assert.equal(found.length, 0);
  assert.equal(addresses(`server ${'a::b '.repeat(20_000)}`).length, 20_000);
});

test('an IPv6 address without digits needs an IP cue somewhere in the text', () => {
  assert.deepEqual(addresses('a::b and c::d'), []);
  assert.deepEqual(addresses('the proxy is at a::b'), ['a::b']);
  assert.deepEqual(addresses('a::b, the gateway'), ['a::b']);
  assert.deepEqual(addresses('fe80::1ff:fe23:4567:890a'), ['fe80::1ff:fe23:4567:890a']);
});
