import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI from '@moderation-api/sdk';
import { countRows, startTestServer, type TestServer, sdkClient } from './helpers.ts';

const RUDE = 'What the fuck is wrong with you';

// GET /v1/authors answers an unfiltered total from trigger-kept counters; it must equal the real count after every kind of write.
describe('authors: unfiltered totals from the per-project counter', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
  });
  after(() => t.close());

  const total = async (query = '', key?: string) => {
    const response = await t.request('GET', `/v1/authors?pageSize=1${query}`, key ? { key } : {});
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body.pagination.total as number;
  };
  const counterRows = async (projectId: string) =>
    (await t.server.db.query<{ n: number }>("SELECT count(*) AS n FROM project_counters WHERE project_id = $1 AND name = 'authors'", [projectId])).rows[0]!.n;

  test('creates by API and by concurrent submissions, repeats, and deletes keep the total exact', async () => {
    assert.equal(await total(), 0);
    for (const id of ['a1', 'a2', 'a3']) assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: id } })).status, 200);
    // A refused duplicate counts nothing.
    assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: 'a1' } })).status, 409);
    assert.equal(await total(), 3);

    // Concurrent submissions share group-commit batches: new authors, known authors and one author twice in a batch.
    await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        client.content.submit({ content: { type: 'text', text: i % 3 === 0 ? RUDE : 'Have a nice day' }, contentId: `c-${i}`, authorId: `s-${i % 25}` }),
      ),
    );
    await client.content.submit({ content: { type: 'text', text: 'again' }, contentId: 'c-a1', authorId: 'a1' });
    assert.equal(await total(), 28);
    assert.equal(await total(), await countRows(t, 'authors'));

    assert.equal((await t.request('DELETE', '/v1/authors/a2')).status, 200);
    assert.equal((await t.request('DELETE', '/v1/authors/a2')).status, 404);
    await client.actions.execute.execute({ actionKey: 'delete_author', authorIds: ['s-1', 's-2', 's-3'] });
    assert.equal(await total(), 24);
    assert.equal(await total(), await countRows(t, 'authors'));
    const list = await t.request('GET', '/v1/authors?pageSize=100');
    assert.equal(list.body.authors.length, 24);
    assert.equal(list.body.pagination.hasNextPage, false);
  });

  test('filtered totals stay exact counts of the matching authors', async () => {
    const since = Date.now() + 60_000;
    await t.request('POST', '/v1/authors', { body: { external_id: 'future', first_seen: since, last_seen: since } });
    assert.equal(await total(`&memberSinceDate=${since}`), 1);
    // s-0..s-24 less the three deleted, and a1.
    assert.equal(await total('&contentTypes=text'), 25 - 3 + 1);
  });

  test('other projects count separately, and deleting a project takes its counters along', async () => {
    const other = await t.newProject();
    const before = await total();
    assert.equal(await total('', other.apiKey), 0);
    assert.equal((await t.request('POST', '/v1/authors', { key: other.apiKey, body: { external_id: 'x' } })).status, 200);
    assert.equal(await total('', other.apiKey), 1);
    assert.equal(await total(), before);
    assert.ok((await counterRows(other.projectId)) >= 1);
    await t.server.db.query('DELETE FROM projects WHERE id = $1', [other.projectId]);
    assert.equal(await counterRows(other.projectId), 0);
    assert.equal(await total(), before);
  });
});
