import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

const RUDE = 'What the fuck is wrong with you';

describe('the report action counts reports against authors', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
    for (const [contentId, authorId] of [['r-1', 'rita'], ['r-2', 'rita'], ['r-3', 'sam'], ['r-4', 'tom']] as const) {
      await client.content.submit({ content: { type: 'text', text: `${RUDE} ${contentId}` }, contentId, authorId });
    }
  });
  after(() => t.close());

  const reports = async (authorId: string) => (await t.request('GET', `/v1/authors/${authorId}`)).body.metrics.report_count as number;

  test('by author id, by item (once per author per execution), sortable, and audited', async () => {
    await client.actions.execute.execute({ actionKey: 'report', authorIds: ['rita', 'sam'], value: 'spam' });
    assert.equal(await reports('rita'), 1);
    assert.equal(await reports('sam'), 1);
    assert.equal(await reports('tom'), 0);
    // Two items by one author in one execution: one report against that author.
    await client.actions.execute.execute({ actionKey: 'report', contentIds: ['r-1', 'r-2'] });
    assert.equal(await reports('rita'), 2);
    await client.actions.execute.execute({ actionKey: 'report', authorIds: ['rita'] });
    assert.equal(await reports('rita'), 3);

    const sorted = await t.request('GET', '/v1/authors?sortBy=reportCount&sortDirection=desc');
    assert.deepEqual(
      sorted.body.authors.map((a: { external_id: string; metrics: { report_count: number } }) => [a.external_id, a.metrics.report_count]),
      [['rita', 3], ['sam', 1], ['tom', 0]],
    );
    const entries = (await t.request('GET', '/v1/audit-log?authorId=rita&actionId=report')).body.entries as Array<{ actionType: string }>;
    assert.ok(entries.length >= 2);
    assert.ok(entries.every((e) => e.actionType === 'AUTHOR_REPORT'));
  });

  test('a refused report changes no count', async () => {
    const before = await reports('tom');
    const unknown = await t.request('POST', '/v1/actions/execute', { body: { actionKey: 'report', authorIds: ['tom', 'nobody'] } });
    assert.equal(unknown.status, 404);
    assert.equal(await reports('tom'), before);
  });
});
