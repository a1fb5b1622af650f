import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

let t: TestServer;
let client: ModerationAPI;
before(async () => {
  t = await startTestServer();
  client = sdkClient(t);
});
after(() => t.close());

const DAY = 86_400_000;

test('the SDK creates, retrieves, updates, lists and deletes an author', async () => {
  const created = await client.authors.create({
    external_id: 'sdk-user-1',
    name: 'Ada',
    email: 'ada@example.com',
    profile_picture: 'https://example.com/ada.png',
    external_link: 'https://example.com/u/ada',
    metadata: { email_verified: true, plan: 'pro', address: { city: 'Oslo', zip: '0150' } },
  });
  assert.match(created.id, /^auth_/);
  assert.equal(created.external_id, 'sdk-user-1');
  assert.equal(created.status, 'enabled');
  assert.equal(created.block, null);
  assert.deepEqual(created.trust_level, { level: 0, manual: false });
  assert.deepEqual(created.metrics, {
    total_content: 0,
    flagged_content: 0,
    average_sentiment: null,
    violation_count: 0,
    report_count: 0,
    flagged_content_ratio: 0,
  } as typeof created.metrics);
  assert.equal(typeof created.risk_evaluation?.risk_level, 'number');
  assert.deepEqual(created.metadata, { email_verified: true, plan: 'pro', address: { city: 'Oslo', zip: '0150' } });
  assert.equal(typeof created.first_seen, 'number');
  assert.equal(created.last_incident, null);

  const byExternal = await client.authors.retrieve('sdk-user-1');
  const byInternal = await client.authors.retrieve(created.id);
  assert.equal(byExternal.id, created.id);
  assert.equal(byInternal.external_id, 'sdk-user-1');

  const updated = await client.authors.update('sdk-user-1', { name: 'Ada L.', manual_trust_level: 4 });
  assert.equal(updated.name, 'Ada L.');
  assert.equal(updated.email, 'ada@example.com', 'fields not sent are kept');
  assert.deepEqual(updated.trust_level, { level: 4, manual: true });
  const reset = await client.authors.update(created.id, { manual_trust_level: null });
  assert.deepEqual(reset.trust_level, { level: 0, manual: false });

  const list = await client.authors.list({ pageSize: 10 });
  assert.ok(list.authors.some((a) => a.id === created.id));
  assert.equal(list.pagination.pageSize, 10);

  const deleted = await client.authors.delete(created.id);
  assert.deepEqual(deleted, { success: true });
  await assert.rejects(client.authors.retrieve(created.id), (e: { status?: number }) => e.status === 404);
});

test('a second author with the same external_id is a conflict', async () => {
  await client.authors.create({ external_id: 'dup' });
  const again = await t.request('POST', '/v1/authors', { body: { external_id: 'dup' } });
  assert.equal(again.status, 409);
  assert.equal(again.body.code, 'CONFLICT');
});

test('invalid author fields are refused and change nothing', async () => {
  const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, i]));
  const cases: Array<[string, Record<string, unknown>]> = [
    ['missing external_id', {}],
    ['bad email', { external_id: 'x', email: 'not-an-email' }],
    ['non-web url', { external_id: 'x', external_link: 'javascript:alert(1)' }],
    ['bad picture url', { external_id: 'x', profile_picture: 'nope' }],
    ['trust level too high', { external_id: 'x', manual_trust_level: 5 }],
    ['trust level too low', { external_id: 'x', manual_trust_level: -2 }],
    ['fractional trust level', { external_id: 'x', manual_trust_level: 1.5 }],
    ['26 metadata keys', { external_id: 'x', metadata: tooMany }],
    ['two levels of nesting', { external_id: 'x', metadata: { a: { b: { c: 1 } } } }],
    ['built-in key not boolean', { external_id: 'x', metadata: { email_verified: 'yes' } }],
    ['unknown field', { external_id: 'x', karma: 3 }],
    ['first_seen after last_seen', { external_id: 'x', first_seen: 2_000, last_seen: 1_000 }],
  ];
  for (const [name, body] of cases) {
    const res = await t.request('POST', '/v1/authors', { body });
    assert.equal(res.status, 400, name);
    assert.equal(res.body.code, 'BAD_REQUEST', name);
  }
  assert.equal((await t.request('GET', '/v1/authors/x')).status, 404);

  await client.authors.create({ external_id: 'keep-me', name: 'Kept' });
  const bad = await t.request('PUT', '/v1/authors/keep-me', { body: { name: 'Changed', metadata: { is_paying_customer: 1 } } });
  assert.equal(bad.status, 400);
  assert.equal((await client.authors.retrieve('keep-me')).name, 'Kept');
});

test('authors of another project are not found', async () => {
  const mine = await client.authors.create({ external_id: 'private' });
  const other = await t.newProject();
  for (const [method, body] of [['GET', undefined], ['PUT', { name: 'x' }], ['DELETE', undefined]] as const) {
    const res = await t.request(method, `/v1/authors/${mine.id}`, { key: other.apiKey, body });
    assert.equal(res.status, 404, method);
  }
  const list = await t.request('GET', '/v1/authors', { key: other.apiKey });
  assert.equal(list.body.pagination.total, 0);
});

test('trust level: manual override, reset, and verified metadata as extra evidence', async () => {
  const now = Date.now();
  const created = await client.authors.create({ external_id: 'vouched', first_seen: now - 10 * DAY, metadata: { identity_verified: true } });
  assert.deepEqual(created.trust_level, { level: 1, manual: false }, 'new, lifted one level by verified identity');
  const untrusted = await client.authors.update('vouched', { manual_trust_level: -1 });
  assert.deepEqual(untrusted.trust_level, { level: -1, manual: true });
  const back = await client.authors.update('vouched', { manual_trust_level: null, metadata: {} });
  assert.deepEqual(back.trust_level, { level: 0, manual: false });
});

test('submissions with an authorId create the author and keep its metrics', async () => {
  const at = Date.now() - 1000;
  const first = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'hello there friend' }, authorId: 'via-moderate', timestamp: at } });
  assert.equal(first.status, 200);
  assert.equal(first.body.author.external_id, 'via-moderate');
  await t.request('POST', '/v1/moderate', { body: { content: { type: 'object', data: { a: { type: 'text', text: 'hi' } } }, authorId: 'via-moderate' } });
  const author = await client.authors.retrieve('via-moderate');
  assert.equal(author.first_seen, at);
  assert.equal(author.metrics.total_content, 2);
  assert.deepEqual((author as unknown as { content_types: string[] }).content_types, ['text', 'object']);
  const filtered = await t.request('GET', '/v1/authors?contentTypes=object');
  assert.deepEqual(filtered.body.authors.map((a: { external_id: string }) => a.external_id), ['via-moderate']);
});

test('list: every sortBy key sorts both ways, pagination flags and filters are right', async () => {
  const project = await t.newProject();
  const sdk = sdkClient(t, project.apiKey);
  const base = Date.now() - 100 * DAY;
  // Five authors whose every sortable value increases with their number.
  for (let i = 1; i <= 5; i++) {
    await sdk.authors.create({ external_id: `s${i}`, first_seen: base + i * DAY, last_seen: base + 50 * DAY + i * DAY });
  }
  await t.server.db.query(
    `UPDATE authors SET trust_level = n - 2, violation_count = n * 2, report_count = n, total_content = n * 10,
       flagged_content = n, flagged_ratio = n / 10.0, content_type_mask = CASE WHEN n % 2 = 0 THEN 2 ELSE 1 END,
       average_sentiment = CASE WHEN n = 1 THEN NULL ELSE n / 10.0 END
     FROM (SELECT id AS aid, substring(external_id from 2)::int AS n FROM authors WHERE project_id = $1) s
     WHERE authors.id = s.aid`,
    [project.projectId],
  );
  const ascending = ['s1', 's2', 's3', 's4', 's5'];
  for (const sortBy of ['trustLevel', 'violationCount', 'reportCount', 'memberSince', 'lastActive', 'contentCount', 'flaggedContentRatio', 'averageSentiment'] as const) {
    const up = await sdk.authors.list({ sortBy, sortDirection: 'asc' });
    assert.deepEqual(up.authors.map((a) => a.external_id), ascending, `${sortBy} asc`);
    const down = await sdk.authors.list({ sortBy });
    assert.deepEqual(down.authors.map((a) => a.external_id), [...ascending].reverse(), `${sortBy} desc is the default`);
  }

  const page1 = await sdk.authors.list({ pageSize: 2, pageNumber: 1, sortBy: 'contentCount', sortDirection: 'asc' });
  assert.deepEqual(page1.pagination, { total: 5, pageSize: 2, pageNumber: 1, hasNextPage: true, hasPreviousPage: false });
  const page3 = await sdk.authors.list({ pageSize: 2, pageNumber: 3, sortBy: 'contentCount', sortDirection: 'asc' });
  assert.deepEqual(page3.authors.map((a) => a.external_id), ['s5']);
  assert.deepEqual(page3.pagination, { total: 5, pageSize: 2, pageNumber: 3, hasNextPage: false, hasPreviousPage: true });
  const defaults = await sdk.authors.list();
  assert.equal(defaults.pagination.pageSize, 20);
  assert.equal(defaults.pagination.pageNumber, 1);

  const iso = (ms: number) => new Date(ms).toISOString();
  const since = await sdk.authors.list({ memberSinceDate: iso(base + 3 * DAY), sortBy: 'memberSince', sortDirection: 'asc' });
  assert.deepEqual(since.authors.map((a) => a.external_id), ['s3', 's4', 's5']);
  const between = await sdk.authors.list({ lastActiveDate: `${iso(base + 52 * DAY)}..${iso(base + 54 * DAY)}`, sortBy: 'lastActive', sortDirection: 'asc' });
  assert.deepEqual(between.authors.map((a) => a.external_id), ['s2', 's3']);
  const images = await sdk.authors.list({ contentTypes: 'image', sortBy: 'contentCount', sortDirection: 'asc' });
  assert.deepEqual(images.authors.map((a) => a.external_id), ['s2', 's4']);
  assert.equal(images.pagination.total, 2);
});

test('list: bad query values are refused', async () => {
  for (const query of [
    'pageSize=0',
    'pageSize=101',
    'pageSize=ten',
    'pageNumber=0',
    'pageNumber=-1',
    'sortBy=karma',
    'sortDirection=up',
    'memberSinceDate=yesterday',
    'lastActiveDate=2024-01-05..2024-01-01',
    'contentTypes=text,gif',
    'colour=red',
  ]) {
    const res = await t.request('GET', `/v1/authors?${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(res.body.code, 'BAD_REQUEST', query);
  }
  const ok = await t.request('GET', '/v1/authors?pageSize=100&memberSinceDate=2020-01-01..&contentTypes=text,image');
  assert.equal(ok.status, 200);
});
