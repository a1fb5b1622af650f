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
