import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from './helpers.ts';

const CYRILLIC_A = '\u0430'; // а, looks like Latin a
const SPOOFED = `Log in to your p${CYRILLIC_A}ypal account`;
const PLAIN = 'Log in to your paypal account';
const RUDE = 'What the fuck is wrong with you';

describe('queues: shadow-flagged items are the ones the pipeline recorded as such', () => {
  let t: TestServer;
  const queues: Record<string, string> = {};
  const itemsOf = async (queue: string) => {
    const response = await t.request('GET', `/v1/queue/${queues[queue]}/items?pageSize=100`);
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return (response.body.items as Array<{ id: string }>).map((i) => i.id).sort();
  };

  before(async () => {
    t = await startTestServer();
    const channels = [
      { key: 'shadow', name: 'Shadow', policies: [{ id: 'unicode_spoofing', flag: true, mode: 'shadow' }] },
      { key: 'flagging', name: 'Flagging', policies: [{ id: 'unicode_spoofing', flag: true }] },
      // Scores high but never flags: not a shadow flag.
      { key: 'silent', name: 'Silent', policies: [{ id: 'profanity', flag: false }] },
    ];
    for (const channel of channels) assert.equal((await t.request('POST', '/v1/channels', { body: channel })).status, 201);
    const submit = async (contentId: string, text: string, channel: string) => {
      const r = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId, channel } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body;
    };
    const shadowAnswer = await submit('spoofed-shadow', SPOOFED, 'shadow');
    assert.equal(shadowAnswer.evaluation.flagged, false);
    assert.equal(shadowAnswer.policies.find((p: { id: string }) => p.id === 'unicode_spoofing').probability, 1);
    await submit('plain-shadow', PLAIN, 'shadow');
    const flaggingAnswer = await submit('spoofed-flagging', SPOOFED, 'flagging');
    assert.equal(flaggingAnswer.evaluation.flagged, true);
    const silentAnswer = await submit('rude-silent', RUDE, 'silent');
    assert.equal(silentAnswer.evaluation.flagged, false);
    assert.ok(silentAnswer.policies.find((p: { id: string }) => p.id === 'profanity').probability >= 0.5);

    const filters: Record<string, unknown> = {
      flaggedWithShadow: { flagged: 'FLAGGED', showShadowFlagged: true },
      flaggedOnly: { flagged: 'FLAGGED', showShadowFlagged: false },
      allButShadow: { showShadowFlagged: false },
      unflaggedWithShadow: { flagged: 'NOT_FLAGGED' },
    };
    for (const [name, filter] of Object.entries(filters)) {
      const created = await t.request('POST', '/v1/queue', { body: { name, filter } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      queues[name] = created.body.queue.id;
    }
  });
  after(() => t.close());

  test('a spoofed text in a shadow-mode channel shows in a queue that shows shadow-flagged items, not in one that hides them', async () => {
    assert.deepEqual(await itemsOf('flaggedWithShadow'), ['spoofed-flagging', 'spoofed-shadow']);
    assert.deepEqual(await itemsOf('flaggedOnly'), ['spoofed-flagging']);
  });

  test('a high score from a policy that may not flag is not a shadow flag', async () => {
    assert.deepEqual(await itemsOf('allButShadow'), ['plain-shadow', 'rude-silent', 'spoofed-flagging']);
    assert.deepEqual(await itemsOf('unflaggedWithShadow'), ['plain-shadow', 'rude-silent', 'spoofed-shadow']);
  });

  test('the stored result names the policies that observed in shadow mode', async () => {
    const { rows } = await t.server.db.query<{ external_id: string; shadow: unknown }>(
      `SELECT external_id, result::json->'shadow_flagged' AS shadow FROM content_items WHERE project_id = $1 ORDER BY external_id`,
      [t.projectId],
    );
    assert.deepEqual(
      rows.map((r) => [r.external_id, r.shadow]),
      [
        ['plain-shadow', null],
        ['rude-silent', null],
        ['spoofed-flagging', null],
        ['spoofed-shadow', ['unicode_spoofing']],
      ],
    );
  });
});
