import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { BadRequestError, NotFoundError } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

const RUDE = 'What the fuck is wrong with you';
const NICE = 'What a lovely day for a walk in the park';

describe('review queues through the official SDK', () => {
  let t: TestServer;
  let client: ModerationAPI;
  let flaggedQueue: string;
  let allQueue: string;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
    const submissions: Array<[string, string, string, string]> = [
      ['q-rude-1', RUDE, 'alice', 'room-1'],
      ['q-rude-2', `${RUDE} today`, 'bob', 'room-2'],
      ['q-rude-3', `${RUDE}, seriously`, 'alice', 'room-1'],
      ['q-nice-1', NICE, 'alice', 'room-1'],
      ['q-nice-2', `${NICE} again`, 'carol', 'room-3'],
    ];
    for (const [contentId, text, authorId, conversationId] of submissions) {
      await client.content.submit({ content: { type: 'text', text }, contentId, authorId, conversationId });
    }
    const flagged = await t.request('POST', '/v1/queue', { body: { name: 'Flagged', description: 'Everything flagged', filter: { flagged: 'FLAGGED', showShadowFlagged: false } } });
    assert.equal(flagged.status, 201);
    flaggedQueue = flagged.body.queue.id;
    const all = await t.request('POST', '/v1/queue', { body: { name: 'Everything' } });
    allQueue = all.body.queue.id;
  });
  after(() => t.close());

  test('queue.retrieve returns the queue with real counts', async () => {
    const { queue } = await client.queue.retrieve(flaggedQueue);
    assert.equal(queue.id, flaggedQueue);
    assert.equal(queue.name, 'Flagged');
    assert.equal(queue.description, 'Everything flagged');
    assert.deepEqual(queue.filter, { flagged: 'FLAGGED', showShadowFlagged: false });
    assert.equal(queue.totalItemsCount, 3);
    assert.equal(queue.unresolvedItemsCount, 3);
    assert.equal(queue.resolvedItemsCount, 0);
    const everything = await client.queue.retrieve(allQueue);
    assert.equal(everything.queue.totalItemsCount, 5);
  });

  test('queue.items.list pages, sorts and carries labels, author, conversation and language', async () => {
    const page1 = await client.queue.items.list(flaggedQueue, { pageSize: 2, pageNumber: 1, sortField: 'createdAt', sortDirection: 'asc' });
    assert.deepEqual(page1.pagination, { currentPage: 1, totalPages: 2, totalItems: 3, hasNextPage: true, hasPreviousPage: false });
    assert.deepEqual(page1.items.map((i) => i.id), ['q-rude-1', 'q-rude-2']);
    const item = page1.items[0]!;
    assert.equal(item.content, RUDE);
    assert.equal(item.flagged, true);
    assert.equal(item.status, 'pending');
    assert.equal(item.authorId, 'alice');
    assert.equal(item.conversationId, 'room-1');
    assert.equal(item.contentType, 'text');
    assert.equal(typeof item.timestamp, 'number');
    assert.deepEqual(item.actions, []);
    const profanity = item.labels.find((l) => l.label === 'profanity');
    assert.ok(profanity && profanity.flagged && profanity.score > 0);
    const page2 = await client.queue.items.list(flaggedQueue, { pageSize: 2, pageNumber: 2, sortField: 'createdAt', sortDirection: 'asc' });
    assert.deepEqual(page2.items.map((i) => i.id), ['q-rude-3']);
    assert.equal(page2.pagination.hasPreviousPage, true);
    assert.equal(page2.pagination.hasNextPage, false);
  });

  test('item filters narrow the queue: author, conversations, labels, dates', async () => {
    const byAuthor = await client.queue.items.list(allQueue, { authorId: 'alice' });
    assert.deepEqual(byAuthor.items.map((i) => i.id).sort(), ['q-nice-1', 'q-rude-1', 'q-rude-3']);
    const byConversation = await client.queue.items.list(allQueue, { conversationIds: 'room-2,room-3' });
    assert.deepEqual(byConversation.items.map((i) => i.id).sort(), ['q-nice-2', 'q-rude-2']);
    const byLabel = await client.queue.items.list(allQueue, { labels: 'profanity' });
    assert.equal(byLabel.pagination.totalItems, 3);
    const future = await client.queue.items.list(allQueue, { afterDate: new Date(Date.now() + 86_400_000).toISOString() });
    assert.equal(future.pagination.totalItems, 0);
  });

  test('label conditions and recommendation filters select the right items', async () => {
    const create = async (filter: unknown) => (await t.request('POST', '/v1/queue', { body: { name: 'tmp', filter } })).body.queue;
    assert.equal((await create({ filterLabels: [{ label: 'profanity', type: 'FLAGGED' }] })).totalItemsCount, 3);
    assert.equal((await create({ filterLabels: [{ label: 'profanity', type: 'NOT_FLAGGED' }] })).totalItemsCount, 2);
    assert.equal((await create({ filterLabels: [{ label: 'profanity', type: 'THRESHOLDS', minThreshold: 0.5 }] })).totalItemsCount, 3);
    assert.equal((await create({ recommendationActions: ['allow'] })).totalItemsCount, 2);
    assert.equal((await create({ authorID: 'bob' })).totalItemsCount, 1);
    assert.equal((await create({ conversationIds: ['room-1', null] })).totalItemsCount, 3);
    assert.equal((await create({ filteredChannelIds: ['default'] })).totalItemsCount, 5);
  });

  test('resolve and unresolve are per queue, with the SDK shapes', async () => {
    const resolved = await client.queue.items.resolve('q-rude-1', { id: flaggedQueue, comment: 'looked at it' });
    assert.equal(resolved.success, true);
    assert.equal(resolved.comment, 'looked at it');
    assert.ok(!Number.isNaN(Date.parse(resolved.resolvedAt)));
    const pending = await client.queue.items.list(flaggedQueue);
    assert.deepEqual(pending.items.map((i) => i.id).sort(), ['q-rude-2', 'q-rude-3']);
    const withResolved = await client.queue.items.list(flaggedQueue, { includeResolved: 'true' });
    assert.equal(withResolved.items.find((i) => i.id === 'q-rude-1')?.status, 'resolved');
    // Another queue still has it pending.
    const other = await client.queue.items.list(allQueue, { pageSize: 100 });
    assert.ok(other.items.some((i) => i.id === 'q-rude-1' && i.status === 'pending'));
    const { queue } = await client.queue.retrieve(flaggedQueue);
    assert.equal(queue.resolvedItemsCount, 1);
    assert.equal(queue.unresolvedItemsCount, 2);

    const unresolved = await client.queue.items.unresolve('q-rude-1', { id: flaggedQueue, comment: 'second look' });
    assert.equal(unresolved.success, true);
    assert.equal(unresolved.status, 'pending');
    assert.ok(!Number.isNaN(Date.parse(unresolved.unresolvedAt)));
    assert.equal((await client.queue.retrieve(flaggedQueue)).queue.unresolvedItemsCount, 3);

    const audit = await t.request('GET', '/v1/audit-log?contentId=q-rude-1');
    assert.equal(audit.status, 200);
    assert.deepEqual(audit.body.entries.map((e: { kind: string }) => e.kind), ['unresolve', 'resolve']);
    assert.equal(audit.body.entries[1].comment, 'looked at it');
  });

  test('an item outside the queue cannot be resolved in it', async () => {
    await assert.rejects(client.queue.items.resolve('q-nice-1', { id: flaggedQueue }), NotFoundError);
  });

  test('queue.getStats reports real aggregates', async () => {
    await client.queue.items.resolve('q-rude-2', { id: flaggedQueue });
    await client.queue.items.resolve('q-rude-3', { id: flaggedQueue });
    const stats = await client.queue.getStats(flaggedQueue, { withinDays: '7' });
    assert.equal(stats.reviewStats.totalReviewed, 2);
    assert.equal(stats.reviewStats.totalPending, 1);
    assert.ok(stats.reviewStats.averageTimeToReview >= 0);
    const today = new Date().toISOString().slice(0, 10);
    assert.deepEqual(stats.trends.dailyReviewCounts, [{ date: today, count: 2 }]);
    assert.equal(stats.topReviewers.length, 1);
    assert.equal(stats.topReviewers[0]!.reviewCount, 2);
    assert.equal(typeof stats.topReviewers[0]!.userId, 'string');
    assert.equal(typeof stats.topReviewers[0]!.name, 'string');
    const profanityTrend = stats.trends.flaggedContentTrends.find((f) => f.label === 'profanity');
    assert.ok(profanityTrend && profanityTrend.trend >= -1 && profanityTrend.trend <= 1);
    assert.ok(Array.isArray(stats.actionStats));
  });

  test('management API: list, update, delete; bad input is a 400 that changes nothing', async () => {
    const list = await t.request('GET', '/v1/queue');
    assert.ok(list.body.queues.some((q: { id: string }) => q.id === flaggedQueue));
    const updated = await t.request('PUT', `/v1/queue/${allQueue}`, { body: { name: 'All items' } });
    assert.equal(updated.status, 200);
    assert.equal(updated.body.queue.name, 'All items');
    const badDate = await t.request('PUT', `/v1/queue/${allQueue}`, { body: { filter: { afterDate: 'yesterday-ish' } } });
    assert.equal(badDate.status, 400);
    assert.equal(badDate.body.issues[0].path, '/filter/afterDate');
    const unknownField = await t.request('POST', '/v1/queue', { body: { name: 'x', filter: { nope: true } } });
    assert.equal(unknownField.status, 400);
    assert.deepEqual((await t.request('GET', `/v1/queue/${allQueue}`)).body.queue.filter, {});
    const created = await t.request('POST', '/v1/queue', { body: { name: 'doomed' } });
    const deleted = await t.request('DELETE', `/v1/queue/${created.body.queue.id}`);
    assert.deepEqual(deleted.body, { id: created.body.queue.id, deleted: true });
    assert.equal((await t.request('GET', `/v1/queue/${created.body.queue.id}`)).status, 404);
  });

  test('query strings are validated: pageSize out of range or not a number', async () => {
    await assert.rejects(client.queue.items.list(flaggedQueue, { pageSize: 1000 }), BadRequestError);
    const notNumber = await t.request('GET', `/v1/queue/${flaggedQueue}/items?pageSize=abc`);
    assert.equal(notNumber.status, 400);
    const badSort = await t.request('GET', `/v1/queue/${flaggedQueue}/items?sortField=name`);
    assert.equal(badSort.status, 400);
    const badDays = await t.request('GET', `/v1/queue/${flaggedQueue}/stats?withinDays=0`);
    assert.equal(badDays.status, 400);
  });

  test('queues of another project are not found', async () => {
    const other = await t.newProject();
    const response = await t.request('GET', `/v1/queue/${flaggedQueue}`, { key: other.apiKey });
    assert.equal(response.status, 404);
    const items = await t.request('GET', `/v1/queue/${flaggedQueue}/items`, { key: other.apiKey });
    assert.equal(items.status, 404);
    await assert.rejects(client.queue.retrieve('q_does_not_exist'), NotFoundError);
  });
});
