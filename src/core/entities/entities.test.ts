import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FieldResult, PolicyContext, PolicySettings } from '../policy.ts';
import { detectPii, detectUrlEntities, parseEntitySettings, piiPolicy, renderMask, urlPolicy } from './index.ts';
import { passesLuhn, passesVerhoeff, mod97 } from './checksums.ts';
import { normalizeLookalikeDigits } from './digits.ts';

const ctx: PolicyContext = { fieldKey: null, original: '', analyses: new Map() };
const allOn = () => true;

function pii(text: string, settings: Partial<PolicySettings> = {}): FieldResult {
  return piiPolicy.evaluate(text, { id: 'pii', flag: true, ...settings }, ctx) as FieldResult;
}

function found(text: string): Array<[string, string]> {
  return detectPii(text, allOn).map((entity) => [entity.entity, text.slice(entity.start, entity.end)]);
}

test('finds each default pii entity with exact spans', () => {
  const text = 'Mail jane.doe@example.com, call +44 20 7946 0958, card 4111 1111 1111 1111, see https://example.org/a.';
  const result = pii(text);
  assert.equal(result.flagged, true);
  assert.deepEqual(
    result.matches!.map((match) => [match.match, match.span, text.slice(match.span[0], match.span[1])]),
    [
      ['jane.doe@example.com', [5, 25], 'jane.doe@example.com'],
      ['+44 20 7946 0958', [32, 48], '+44 20 7946 0958'],
      ['4111 1111 1111 1111', [55, 74], '4111 1111 1111 1111'],
      ['https://example.org/a', [80, 101], 'https://example.org/a'],
    ],
  );
  assert.equal(result.probability, Math.max(...result.matches!.map((match) => match.probability)));
  assert.ok(result.matches!.every((match) => match.replacement === undefined));
});

test('spans count UTF-16 code units after astral characters', () => {
  const text = '😀😀 write to a@b.co';
  const [match] = pii(text).matches!;
  assert.deepEqual(match!.span, [14, 20]);
  assert.equal(text.slice(14, 20), 'a@b.co');
});

test('masks only entities with shouldMask, with $ inserting the match', () => {
  const text = 'jane@example.com or 212-555-0123';
  const result = pii(text, { entities: { email: { shouldMask: true }, phone: { shouldMask: true, mask: '[$]' } } });
  assert.deepEqual(result.matches!.map((match) => match.replacement), ['{{ email hidden }}', '[212-555-0123]']);
  const unmasked = pii(text, { entities: { phone: { shouldMask: true } } });
  assert.deepEqual(unmasked.matches!.map((match) => match.replacement), [undefined, '{{ phone hidden }}']);
  assert.equal(renderMask('<$|$>', 'x'), '<x|x>');
});

test('entity flag and policy flag control flagged, not matching', () => {
  const text = 'call 212-555-0123';
  const quiet = pii(text, { entities: { phone: { flag: false } } });
  assert.equal(quiet.matches!.length, 1);
  assert.equal(quiet.flagged, false);
  assert.equal(pii(text, { flag: false }).flagged, false);
  assert.equal(pii(text).flagged, true);
  assert.equal(pii(text, { entities: { phone: { enable: false } } }).matches!.length, 0);
});

test('heuristic entities are off by default and can be enabled', () => {
  const text = 'My name is John Smith, I live at 221 Baker Street and I am @jsmith_99 everywhere.';
  assert.equal(pii(text).matches!.length, 0);
  const result = pii(text, { entities: { name: { enable: true }, address: { enable: true }, username: { enable: true } } });
  assert.deepEqual(result.matches!.map((match) => match.match), ['John Smith', '221 Baker Street', '@jsmith_99']);
});

test('obfuscated emails are found', () => {
  assert.deepEqual(found('jane [at] example [dot] com'), [['email', 'jane [at] example [dot] com']]);
  assert.deepEqual(found('jane(at)example(.)com'), [['email', 'jane(at)example(.)com']]);
  assert.deepEqual(found('jane @ example . com'), [['email', 'jane @ example . com']]);
  assert.deepEqual(found('hit me up: jane at gmail dot com'), [['email', 'jane at gmail dot com']]);
  assert.deepEqual(found('email me, jane at example dot com'), [['email', 'jane at example dot com']]);
});

test('plain-word "at ... dot" forms need strong evidence', () => {
  assert.deepEqual(found('jane at example dot com'), []);
  assert.deepEqual(found('look at this dot com bubble'), []);
  assert.deepEqual(found('We met at the office, dot the i and cross the t.'), []);
});

test('obfuscated phone numbers are found', () => {
  assert.deepEqual(found('text 5 5 5 - 1 2 3 4'), [['phone', '5 5 5 - 1 2 3 4']]);
  assert.deepEqual(found('ring 555-l234 tonight'), [['phone', '555-l234']]);
  assert.deepEqual(found('call 2O2-555-O1OO'), [['phone', '2O2-555-O1OO']]);
  assert.deepEqual(found('call (555) 123-4567'), [['phone', '(555) 123-4567']]);
  assert.deepEqual(found('+33 6 12 34 56 78'), [['phone', '+33 6 12 34 56 78']]);
});

test('links, including defanged ones', () => {
  assert.deepEqual(found('go to example[.]com now'), [['url', 'example[.]com']]);
  assert.deepEqual(found('hxxp://evil.example/path.'), [['url', 'hxxp://evil.example/path']]);
  assert.deepEqual(found('(see https://en.wikipedia.org/wiki/Foo_(bar))'), [['url', 'https://en.wikipedia.org/wiki/Foo_(bar)']]);
  assert.deepEqual(found('visit mysite dot net for more'), [['url', 'mysite dot net']]);
  assert.deepEqual(found('the dot com era was wild'), []);
});

test('ip addresses v4 and v6, not versions', () => {
  assert.deepEqual(found('host 203.0.113.7 and fe80::1ff:fe23:4567:890a'), [
    ['ip_address', '203.0.113.7'],
    ['ip_address', 'fe80::1ff:fe23:4567:890a'],
  ]);
  assert.deepEqual(found('upgrade to version 1.2.3.4 today'), []);
  assert.deepEqual(found('meet at 10:30:15 sharp'), []);
});

test('cards need Luhn, ids need their checksum', () => {
  assert.deepEqual(found('4111 1111 1111 1112'), []);
  assert.deepEqual(found('amex 3782 822463 10005'), [['credit_card', '3782 822463 10005']]);
  assert.deepEqual(found('IBAN GB82 WEST 1234 5698 7654 32 ok'), [['sensitive_other', 'GB82 WEST 1234 5698 7654 32']]);
  assert.deepEqual(found('IBAN GB82 WEST 1234 5698 7654 33 ok'), []);
  assert.deepEqual(found('ssn 123-45-6789'), [['sensitive_other', '123-45-6789']]);
  assert.deepEqual(found('ssn 666-45-6789'), []);
  assert.deepEqual(found('NI number AB 12 34 56 C'), [['sensitive_other', 'AB 12 34 56 C']]);
  assert.deepEqual(found('DNI 12345678Z'), [['sensitive_other', '12345678Z']]);
  assert.deepEqual(found('DNI 12345678A'), []);
  assert.ok(passesLuhn('79927398713') && !passesLuhn('79927398710'));
  assert.ok(passesVerhoeff('2363') && !passesVerhoeff('2364'));
  assert.equal(mod97('3214282912345698765432161182'), 1);
});

test('ordinary numbers in prose are not entities', () => {
  for (const sentence of [
    'The meeting moved to 10:30 on 2024-03-15 in room 4B.',
    'It costs $1,299.99, or 1.299,99 € in Germany.',
    'We won 21-19 21-17 and then 25-23.',
    'Node 20.11.1 replaced 18.19.0 last week.',
    'Population grew from 8,336,817 to 8,804,190 between 2010 and 2020.',
    'Order #5551234567 shipped; ISBN 978-3-16-148410-0.',
    'Call me.Thanks for the 3 tips, e.g. the one about U.S. taxes.',
  ]) {
    assert.deepEqual(found(sentence), [], sentence);
  }
});

test('lookalike digits are only normalized inside digit runs', () => {
  assert.equal(normalizeLookalikeDigits('555-l234 lol IO 2O24'), '555-1234 lol IO 2024');
  const text = 'nothing to see';
  assert.equal(normalizeLookalikeDigits(text), text);
});

test('url policy classifies links into its entities', () => {
  const text = 'see hxxps://bad[.]site/x, http://10.0.0.1/a, bit.ly/x and example.com';
  const kinds = detectUrlEntities(text, allOn).map((entity) => [entity.entity, text.slice(entity.start, entity.end)]);
  assert.deepEqual(kinds, [
    ['obfuscated_url', 'hxxps://bad[.]site/x'],
    ['ip_host', 'http://10.0.0.1/a'],
    ['shortener', 'bit.ly/x'],
    ['url', 'example.com'],
  ]);
  const onlyUrl = urlPolicy.evaluate(text, { id: 'url', flag: true, entities: { shortener: { enable: false, mask: 'x' } } }, ctx) as FieldResult;
  assert.equal(onlyUrl.matches!.length, 4, 'a disabled specific kind falls back to url');
  const none = urlPolicy.evaluate(text, { id: 'url', flag: true, entities: { url: { enable: false }, shortener: { enable: false } } }, ctx) as FieldResult;
  assert.deepEqual(none.matches!.map((match) => match.match), ['hxxps://bad[.]site/x', 'http://10.0.0.1/a']);
});

test('parseEntitySettings validates the SDK override shape', () => {
  const ok = parseEntitySettings('pii', { id: 'pii', flag: true, entities: { email: { enable: true, shouldMask: true, mask: '***' } } });
  assert.deepEqual(ok, { ok: true, value: { id: 'pii', flag: true, entities: { email: { enable: true, shouldMask: true, mask: '***' } } } });
  const bad = parseEntitySettings('pii', { id: 'url', entities: { emial: {}, phone: { flag: 'yes' } } });
  assert.equal(bad.ok, false);
  if (!bad.ok) assert.deepEqual(bad.issues.map((issue) => issue.path), ['id', 'entities.emial', 'entities.phone.flag']);
  assert.equal(parseEntitySettings('url', { entities: { shortener: { enable: false } } }).ok, true);
  assert.equal(parseEntitySettings('url', 'nope').ok, false);
});

test('no matches gives an empty, unflagged result', () => {
  const result = pii('Nothing personal here, just 3 apples.');
  assert.deepEqual(result, { probability: 0, matches: [], flagged: false });
});
