import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseCustomDataItem, parseCustomDataResponse } from './custom-data.ts';

test('each of the six kinds with its required and optional fields', () => {
  assert.deepEqual(parseCustomDataItem({ type: 'field', value: 'v' }), { type: 'field', value: 'v' });
  assert.deepEqual(parseCustomDataItem({ type: 'status', label: 'L', value: 'v', variant: 'danger', tooltip: 't' }), { type: 'status', label: 'L', value: 'v', variant: 'danger', tooltip: 't' });
  assert.deepEqual(parseCustomDataItem({ type: 'link', label: 'Open', url: 'https://x.example/a', variant: 'ghost' }), { type: 'link', label: 'Open', url: 'https://x.example/a', variant: 'ghost' });
  assert.deepEqual(parseCustomDataItem({ type: 'metric', label: 'LTV', value: 12.5 }), { type: 'metric', label: 'LTV', value: '12.5' });
  assert.deepEqual(parseCustomDataItem({ type: 'heading', label: 'H' }), { type: 'heading', label: 'H' });
  assert.deepEqual(parseCustomDataItem({ type: 'separator', label: 'ignored' }), { type: 'separator' });
});

test('invalid items and unknown kinds are told apart', () => {
  for (const bad of [
    null,
    [],
    'text',
    { label: 'no type' },
    { type: 'field' },
    { type: 'field', value: '' },
    { type: 'field', value: { nested: true } },
    { type: 'status', value: 'v', variant: 'purple' },
    { type: 'link', label: 'x', url: 'http://plain.example' },
    { type: 'link', label: 'x', url: 'javascript:alert(1)' },
    { type: 'link', label: 'x', url: 'not a url' },
    { type: 'metric', value: '1' },
    { type: 'heading' },
    { type: 'field', value: 'x'.repeat(1001) },
  ]) {
    assert.equal(parseCustomDataItem(bad), 'invalid', JSON.stringify(bad));
  }
  assert.equal(parseCustomDataItem({ type: 'chart', data: [] }), 'unknown');
});

test('the answer needs version 1 and an items array; bad items are counted, not fatal', () => {
  assert.deepEqual(parseCustomDataResponse('nope'), { status: 'unavailable', reason: 'invalid_response' });
  assert.deepEqual(parseCustomDataResponse('{"version":2,"items":[]}'), { status: 'unavailable', reason: 'invalid_response' });
  assert.deepEqual(parseCustomDataResponse('{"version":1}'), { status: 'unavailable', reason: 'invalid_response' });
  assert.deepEqual(parseCustomDataResponse('null'), { status: 'unavailable', reason: 'invalid_response' });
  const ok = parseCustomDataResponse(JSON.stringify({ version: 1, items: [{ type: 'separator' }, { type: 'x' }, { type: 'field' }] }), 5);
  assert.deepEqual(ok, { status: 'ok', items: [{ type: 'separator' }], skipped: { unknownKind: 1, invalid: 1 }, fetchedAt: 5, cached: false });
  const many = parseCustomDataResponse(JSON.stringify({ version: 1, items: Array.from({ length: 250 }, () => ({ type: 'separator' })) }));
  assert.equal(many.status === 'ok' && many.items.length, 200);
  assert.equal(many.status === 'ok' && many.skipped.invalid, 50);
});
