import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

const pii = {
  id: 'pii',
  entities: {
    email: { enable: true, flag: true, shouldMask: true, mask: '{{ email hidden }}' },
    phone: { enable: true, flag: true, shouldMask: true, mask: '<$>' },
  },
};

type Match = { match: string; probability: number; span: [number, number] };
type PolicyResult = { id: string; type: string; flagged: boolean; probability: number; matches: Match[]; flagged_fields?: string[] };

describe('entity matchers with masking through /v1/moderate', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const moderate = async (content: unknown, policies: unknown[] = [pii], channel?: string) => {
    const response = await t.request('POST', '/v1/moderate', { body: { content, policies, doNotStore: true, ...(channel ? { channel } : {}) } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body as { content: { masked: boolean; modified: unknown }; policies: PolicyResult[]; evaluation: { flagged: boolean } };
  };
  const policy = (body: { policies: PolicyResult[] }, id: string) => body.policies.find((p) => p.id === id)!;

  test('each pii entity is found with its span; masks apply, `$` inserts the match', async () => {
    const text = 'Mail jane@example.com or call +1 415 555 0132';
    const body = await moderate({ type: 'text', text });
    const result = policy(body, 'pii');
    assert.equal(result.type, 'entity_matcher');
    assert.equal(result.flagged, true);
    assert.equal(body.evaluation.flagged, true);
    const bySpan = result.matches.map((m) => [m.match, text.slice(m.span[0], m.span[1])]);
    assert.deepEqual(bySpan, [
      ['jane@example.com', 'jane@example.com'],
      ['+1 415 555 0132', '+1 415 555 0132'],
    ]);
    assert.equal(body.content.masked, true);
    assert.equal(body.content.modified, 'Mail {{ email hidden }} or call <+1 415 555 0132>');
  });

  // One sentence per entity, every entity enabled and masked with `[$]`: the match, its span in the
  // submitted text and the mask must all agree.
  const EVERY_ENTITY: Array<[entity: string, text: string, match: string]> = [
    ['email', 'Contact me at jane.doe@example.com for details.', 'jane.doe@example.com'],
    ['phone', 'Call me on (555) 123-4567 tonight', '(555) 123-4567'],
    ['url', 'Read https://example.com/docs/start?x=1 first', 'https://example.com/docs/start?x=1'],
    ['ip_address', 'the server is at 203.0.113.42 now', '203.0.113.42'],
    ['ip_address', 'ipv6 host 2001:db8::8a2e:370:7334 answers', '2001:db8::8a2e:370:7334'],
    ['credit_card', 'card 4111 1111 1111 1111 exp 12/27', '4111 1111 1111 1111'],
    ['sensitive_other', 'IBAN DE89 3704 0044 0532 0130 00', 'DE89 3704 0044 0532 0130 00'],
    ['name', 'My name is Jane Smith, nice to meet you', 'Jane Smith'],
    ['address', 'I live at 42 Elm Street these days', '42 Elm Street'],
    ['username', 'follow me @cool_gamer99 for more', '@cool_gamer99'],
  ];
  const everyEntity = {
    id: 'pii',
    entities: Object.fromEntries(
      ['email', 'phone', 'url', 'ip_address', 'credit_card', 'sensitive_other', 'name', 'address', 'username'].map((e) => [
        e,
        { enable: true, flag: true, shouldMask: true, mask: '[$]' },
      ]),
    ),
  };
  for (const [entity, text, match] of EVERY_ENTITY) {
    test(`pii ${entity}: "${match}" found at its span and masked`, async () => {
      const body = await moderate({ type: 'text', text }, [everyEntity]);
      const result = policy(body, 'pii');
      const found = result.matches.find((m) => m.match === match);
      assert.ok(found, `${entity} not found in ${JSON.stringify(result.matches)}`);
      assert.equal(text.slice(found.span[0], found.span[1]), match);
      assert.equal(result.flagged, true);
      assert.ok((body.content.modified as string).includes(`[${match}]`));
    });
  }
  test('a failed Luhn check is not a card number', async () => {
    const body = await moderate({ type: 'text', text: 'card 4111 1111 1111 1112 exp 12/27' }, [everyEntity]);
    assert.ok(!policy(body, 'pii').matches.some((m) => m.match.includes('4111')));
  });

  test('obfuscated emails are caught and masked whole', async () => {
    const text = 'write jane [at] example [dot] com today';
    const body = await moderate({ type: 'text', text });
    const email = policy(body, 'pii').matches[0]!;
    assert.equal(email.match, 'jane [at] example [dot] com');
    assert.deepEqual(email.span, [6, 33]);
    assert.equal(body.content.modified, 'write {{ email hidden }} today');
  });

  test('without masking nothing is modified', async () => {
    const body = await moderate({ type: 'text', text: 'Mail jane@example.com' }, [{ id: 'pii', entities: { email: { enable: true, flag: true, shouldMask: false } } }]);
    assert.equal(policy(body, 'pii').flagged, true);
    assert.equal(body.content.masked, false);
    assert.equal(body.content.modified, null);
  });

  test('an entity with flag false is found but does not flag', async () => {
    const body = await moderate({ type: 'text', text: 'Mail jane@example.com' }, [{ id: 'pii', entities: { email: { enable: true, flag: false, shouldMask: true } } }]);
    const result = policy(body, 'pii');
    assert.equal(result.matches.length, 1);
    assert.equal(result.flagged, false);
    assert.equal(body.content.modified, 'Mail {{ email hidden }}');
  });

  test('object content: modified is a map, flagged_fields names the field', async () => {
    const body = await moderate({
      type: 'object',
      data: { title: { type: 'text', text: 'call me +1 415 555 0132' }, body: { type: 'text', text: 'nothing to see' } },
    });
    const result = policy(body, 'pii');
    assert.deepEqual(result.flagged_fields, ['title']);
    assert.equal(body.content.masked, true);
    assert.deepEqual(body.content.modified, {
      title: { type: 'text', text: 'call me <+1 415 555 0132>' },
      body: { type: 'text', text: 'nothing to see' },
    });
  });

  test('with Unicode normalization on, masks apply to the normalized text and modified carries both', async () => {
    // Fullwidth "ｍ" and a zero-width space inside the address: normalization rewrites both, then the mask applies.
    const text = 'ｍail ja\u200Bne@example.com now';
    const body = await moderate({ type: 'text', text });
    const email = policy(body, 'pii').matches[0]!;
    assert.equal(email.match, 'jane@example.com');
    assert.equal(body.content.masked, true);
    assert.equal(body.content.modified, 'mail {{ email hidden }} now');
  });

  test('with normalization off, masks apply to the text as submitted', async () => {
    const created = await t.request('POST', '/v1/channels', { body: { key: 'raw', name: 'raw', unicodeNormalization: false } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const text = 'ｍail jane@example.com now';
    const body = await moderate({ type: 'text', text }, [pii], 'raw');
    assert.equal(body.content.modified, 'ｍail {{ email hidden }} now');
  });

  test('url policy: links found with spans and masked', async () => {
    const text = 'see https://example.com/x and www.foo.org';
    const body = await moderate({ type: 'text', text }, [{ id: 'url', entities: { url: { enable: true, flag: true, shouldMask: true, mask: '[link: $]' } } }]);
    const result = policy(body, 'url');
    assert.equal(result.flagged, true);
    assert.deepEqual(
      result.matches.map((m) => [m.match, m.span]),
      [
        ['https://example.com/x', [4, 25]],
        ['www.foo.org', [30, 41]],
      ],
    );
    assert.equal(body.content.modified, 'see [link: https://example.com/x] and [link: www.foo.org]');
  });

  test('bad entity settings are a 400 with a path', async () => {
    const response = await t.request('POST', '/v1/moderate', {
      body: { content: { type: 'text', text: 'x' }, policies: [{ id: 'pii', entities: { email: { enable: 'yes' } } }] },
    });
    assert.equal(response.status, 400);
    assert.equal(response.body.issues[0].path, '/policies/0/entities/email/enable');
  });
});
