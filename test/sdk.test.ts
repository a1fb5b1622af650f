import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { AuthenticationError, BadRequestError, NotFoundError } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

/** The official SDK, pointed at our base URL, as a real client. */
describe('official SDK against a running server', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
  });
  after(() => t.close());

  const assertSubmitShape = (r: Awaited<ReturnType<ModerationAPI['content']['submit']>>) => {
    assert.equal(typeof r.content.id, 'string');
    assert.equal(typeof r.content.masked, 'boolean');
    assert.ok('modified' in r.content);
    assert.equal(typeof r.evaluation.flagged, 'boolean');
    assert.equal(typeof r.evaluation.flag_probability, 'number');
    assert.equal(typeof r.evaluation.severity_score, 'number');
    assert.ok(['allow', 'review', 'reject'].includes(r.recommendation.action));
    assert.ok(Array.isArray(r.recommendation.reason_codes));
    assert.ok(Array.isArray(r.policies));
    assert.ok(Array.isArray(r.insights));
    assert.ok(['success', 'partial_success'].includes(r.meta.status));
    assert.equal(typeof r.meta.timestamp, 'number');
    assert.equal(typeof r.meta.channel_key, 'string');
    assert.equal(typeof r.meta.usage, 'number');
    assert.equal(typeof r.meta.processing_time, 'string');
    for (const p of r.policies) {
      assert.equal(typeof p.id, 'string');
      assert.ok(p.type === 'classifier' || p.type === 'entity_matcher');
      assert.equal(typeof p.probability, 'number');
      assert.ok(p.probability >= 0 && p.probability <= 1);
      assert.equal(typeof p.flagged, 'boolean');
    }
    for (let i = 1; i < r.policies.length; i++) assert.ok(r.policies[i - 1]!.probability >= r.policies[i]!.probability);
  };

  test('content.submit with text returns every field of ContentSubmitResponse', async () => {
    const r = await client.content.submit({
      content: { type: 'text', text: 'What the fuck is wrong with you' },
      authorId: 'sdk-author-1',
      contentId: 'sdk-text-1',
      metaType: 'message',
      conversationId: 'room-1',
      metadata: { source: 'sdk-test' },
    });
    assertSubmitShape(r);
    assert.equal(r.content.id, 'sdk-text-1');
    assert.equal(r.meta.channel_key, 'default');
    assert.equal(r.evaluation.flagged, true);
    assert.equal(r.recommendation.action, 'review');
    assert.deepEqual(r.recommendation.reason_codes, ['severity_review']);
    const profanity = r.policies.find((p) => p.id === 'profanity');
    assert.ok(profanity && profanity.flagged);
    assert.ok(r.author);
    assert.equal(r.author.external_id, 'sdk-author-1');
    assert.equal(typeof r.author.id, 'string');
    assert.equal(r.author.status, 'enabled');
    assert.equal(r.author.trust_level.manual, false);
    assert.ok(Number.isInteger(r.author.trust_level.level) && r.author.trust_level.level >= -1 && r.author.trust_level.level <= 4);
    assert.ok('block' in r.author);
  });

  test('content.submit with object content reports flagged_fields', async () => {
    const r = await client.content.submit({
      content: {
        type: 'object',
        data: {
          title: { type: 'text', text: 'Lovely bike for sale' },
          description: { type: 'text', text: 'this shit is broken' },
        },
      },
    });
    assertSubmitShape(r);
    assert.equal(r.author, null);
    const profanity = r.policies.find((p) => p.id === 'profanity')!;
    assert.equal(profanity.flagged, true);
    assert.deepEqual(profanity.flagged_fields, ['description']);
  });

  test('a bad key raises AuthenticationError', async () => {
    const bad = sdkClient(t, 'not-a-real-key');
    await assert.rejects(bad.content.submit({ content: { type: 'text', text: 'hi' } }), (error: unknown) => {
      assert.ok(error instanceof AuthenticationError);
      assert.equal(error.status, 401);
      return true;
    });
  });

  test('contentId of 101 characters gives 400 with the error body', async () => {
    await assert.rejects(client.content.submit({ content: { type: 'text', text: 'hi' }, contentId: 'x'.repeat(101) }), (error: unknown) => {
      assert.ok(error instanceof BadRequestError);
      const body = error.error as { code: string; message: string; issues: Array<{ path?: string }> };
      assert.equal(body.code, 'BAD_REQUEST');
      assert.equal(typeof body.message, 'string');
      assert.ok(body.issues.some((i) => i.path === '/contentId'));
      return true;
    });
  });

  test('an unknown channel gives NotFoundError', async () => {
    await assert.rejects(client.content.submit({ content: { type: 'text', text: 'hi' }, channel: 'nope' }), NotFoundError);
  });

  test('account.list and the deprecated auth calls answer for the key\'s project', async () => {
    const account = await client.account.list();
    assert.equal(account.id, t.projectId);
    assert.equal(account.paid_plan_name, 'self-hosted');
    assert.ok(account.remaining_quota > 0 && account.text_api_quota >= account.remaining_quota);
    assert.equal(account.current_project?.id, t.projectId);
    const project = (await t.server.db.query<{ name: string }>('SELECT name FROM projects WHERE id = $1', [t.projectId])).rows[0]!.name;
    assert.equal(account.current_project?.name, project);
    assert.deepEqual(await client.auth.retrieve(), { status: 'ok', message: 'Authenticated' });
    assert.deepEqual(await client.auth.create({}), { status: 'ok', message: 'Authenticated', project });
    const stranger = new ModerationAPI({ secretKey: 'om_not-a-key', baseURL: t.baseURL, maxRetries: 0 });
    await assert.rejects(stranger.account.list(), AuthenticationError);
    await assert.rejects(stranger.auth.retrieve(), AuthenticationError);
  });
});
