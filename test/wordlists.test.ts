import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { NotFoundError } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe('wordlists API', () => {
  let t: TestServer;
  let client: ModerationAPI;
  before(async () => {
    t = await startTestServer();
    client = sdkClient(t);
  });
  after(() => t.close());

  const create = async (body: Record<string, unknown>, key?: string) => {
    const response = await t.request('POST', '/v1/wordlist', { body, ...(key ? { key } : {}) });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body as { id: string; key: string | null; words: string[] };
  };

  test('create beyond the SDK: words lowercased, trimmed, de-duplicated, sorted', async () => {
    const created = await create({ name: 'Spam words', key: 'spam', description: 'promo', words: ['Free', 'free', '  BUY   now ', 'cash'] });
    assert.match(created.id, /^wl_/);
    assert.equal(created.key, 'spam');
    assert.deepEqual(created.words, ['buy now', 'cash', 'free']);
  });

  test('the SDK lists, retrieves and updates with its exact shapes', async () => {
    const created = await create({ name: 'SDK list', words: ['alpha'] });
    const list = await client.wordlist.list();
    const item = list.find((w) => w.id === created.id);
    assert.ok(item);
    assert.equal(item.name, 'SDK list');
    assert.equal(item.description, null);
    assert.equal(item.userId, null);
    assert.match(item.createdAt!, ISO);

    const retrieved = await client.wordlist.retrieve(created.id);
    assert.equal(retrieved.id, created.id);
    assert.equal(retrieved.name, 'SDK list');
    assert.equal(retrieved.organizationId, t.projectId);
    assert.equal(retrieved.strict, false);
    assert.equal(retrieved.userId, null);
    assert.match(retrieved.createdAt, ISO);
    assert.deepEqual(retrieved.words, ['alpha']);

    const updated = await client.wordlist.update(created.id, { name: 'Renamed', strict: true, words: ['Beta', 'gamma', 'beta'] });
    assert.equal(updated.name, 'Renamed');
    assert.equal(updated.strict, true);
    assert.deepEqual(updated.words, ['beta', 'gamma']);
    const again = await client.wordlist.retrieve(created.id);
    assert.deepEqual(again.words, ['beta', 'gamma']);
    assert.equal(again.name, 'Renamed');
  });

  test('the SDK adds and removes words; counts and lists are exact', async () => {
    const created = await create({ name: 'words', words: ['one'] });
    const added = await client.wordlist.words.add(created.id, { words: ['Two', 'one', 'three', 'two'] });
    assert.deepEqual(
      { ...added, addedWords: [...added.addedWords].sort() },
      { addedCount: 2, addedWords: ['three', 'two'], totalCount: 3 },
    );
    // The SDK sends ?words=one,missing (comma format).
    const removed = await client.wordlist.words.remove(created.id, { words: ['ONE', 'missing'] });
    assert.deepEqual(removed, { removedCount: 1, removedWords: ['one'], totalCount: 2 });
    assert.deepEqual((await client.wordlist.retrieve(created.id)).words, ['three', 'two']);

    const status = await client.wordlist.getEmbeddingStatus(created.id);
    assert.deepEqual(status, { progress: 100, remainingWords: 0, totalWords: 2 });
  });

  test('bad input is a 400 and changes nothing', async () => {
    const created = await create({ name: 'guarded', words: ['keep'] });
    for (const body of [{ words: [] }, { words: ['   '] }, { words: 'keep' }, { words: ['x'], extra: 1 }]) {
      const response = await t.request('POST', `/v1/wordlist/${created.id}/words`, { body });
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.body.code, 'BAD_REQUEST');
    }
    assert.equal((await t.request('POST', '/v1/wordlist', { body: { name: 'x', key: 'Bad Key' } })).status, 400);
    assert.equal((await t.request('PUT', `/v1/wordlist/${created.id}`, { body: { words: [''] } })).status, 400);
    assert.equal((await t.request('DELETE', `/v1/wordlist/${created.id}/words`)).status, 400);
    assert.deepEqual((await client.wordlist.retrieve(created.id)).words, ['keep']);
  });

  test('a duplicate key is a 409', async () => {
    await create({ name: 'first', key: 'dupe' });
    const response = await t.request('POST', '/v1/wordlist', { body: { name: 'second', key: 'dupe' } });
    assert.equal(response.status, 409);
    assert.equal(response.body.code, 'CONFLICT');
  });

  test('delete beyond the SDK; afterwards the list is gone', async () => {
    const created = await create({ name: 'doomed', words: ['a'] });
    const deleted = await t.request('DELETE', `/v1/wordlist/${created.id}`);
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.id, created.id);
    assert.equal((await t.request('GET', `/v1/wordlist/${created.id}`)).status, 404);
    await assert.rejects(client.wordlist.retrieve(created.id), NotFoundError);
  });

  test("another project's wordlist is not found, on every route", async () => {
    const created = await create({ name: 'private', key: 'private', words: ['secret'] });
    const other = await t.newProject();
    const otherClient = sdkClient(t, other.apiKey);
    await assert.rejects(otherClient.wordlist.retrieve(created.id), NotFoundError);
    await assert.rejects(otherClient.wordlist.update(created.id, { name: 'stolen' }), NotFoundError);
    await assert.rejects(otherClient.wordlist.getEmbeddingStatus(created.id), NotFoundError);
    await assert.rejects(otherClient.wordlist.words.add(created.id, { words: ['x'] }), NotFoundError);
    await assert.rejects(otherClient.wordlist.words.remove(created.id, { words: ['secret'] }), NotFoundError);
    assert.equal((await t.request('DELETE', `/v1/wordlist/${created.id}`, { key: other.apiKey })).status, 404);
    assert.deepEqual(await otherClient.wordlist.list(), []);
    // The other project's policy cannot reach the list either.
    const moderated = await t.request('POST', '/v1/moderate', {
      key: other.apiKey,
      body: { content: { type: 'text', text: 'secret' }, policies: [{ id: 'wordlist_private' }], doNotStore: true },
    });
    assert.equal(moderated.status, 200);
    assert.equal(moderated.body.meta.status, 'partial_success');
    assert.equal(moderated.body.errors[0].id, 'wordlist_private');
    assert.deepEqual((await client.wordlist.retrieve(created.id)).words, ['secret']);
  });
});

describe('wordlist policy through /v1/moderate', () => {
  let t: TestServer;
  before(async () => {
    t = await startTestServer();
  });
  after(() => t.close());

  const moderate = async (text: string, policy: Record<string, unknown>) => {
    const response = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, policies: [policy], doNotStore: true } });
    assert.equal(response.status, 200, JSON.stringify(response.body));
    return response.body;
  };

  test('blocklist sees through separators, leetspeak and elongation, not into longer words', async () => {
    await t.request('POST', '/v1/wordlist', { body: { name: 'promo', key: 'promo', words: ['free', 'buy now'] } });
    for (const [text, match] of [
      ['get it f.r.e.e today', 'f.r.e.e'],
      ['totally fr33 stuff', 'fr33'],
      ['freeeee', 'freeeee'],
      ['FREE', 'FREE'],
      ['please BUY NOW', 'BUY NOW'],
    ] as const) {
      const body = await moderate(text, { id: 'wordlist_promo' });
      const result = body.policies.find((p: { id: string }) => p.id === 'wordlist_promo');
      assert.equal(result.type, 'entity_matcher');
      assert.equal(result.flagged, true, text);
      assert.equal(body.evaluation.flagged, true, text);
      assert.equal(result.matches[0].match, match);
      assert.equal(text.slice(result.matches[0].span[0], result.matches[0].span[1]), match);
      assert.deepEqual(result.data.words.length, 1);
    }
    const clean = await moderate('freedom of speech', { id: 'wordlist_promo' });
    const result = clean.policies.find((p: { id: string }) => p.id === 'wordlist_promo');
    assert.equal(result.flagged, false);
    assert.deepEqual(result.matches, []);
  });

  test('match modes: stem catches inflections only when asked', async () => {
    await t.request('POST', '/v1/wordlist', { body: { name: 'stems', key: 'stems', words: ['scam'] } });
    const exact = await moderate('total scams here', { id: 'wordlist_stems' });
    assert.equal(exact.policies[0].flagged, false);
    const stem = await moderate('total scams here', { id: 'wordlist_stems', match: 'stem' });
    assert.equal(stem.policies[0].flagged, true);
    assert.equal(stem.policies[0].matches[0].match, 'scams');
  });

  test('allowlist never flags and reports the allowed spans', async () => {
    await t.request('POST', '/v1/wordlist', { body: { name: 'brands', key: 'brands', words: ['acme'] } });
    const body = await moderate('I love ACME', { id: 'wordlist_brands', mode: 'allowlist' });
    const result = body.policies[0];
    assert.equal(result.flagged, false);
    assert.equal(result.probability, 0);
    assert.deepEqual(result.data, { mode: 'allowlist', allowed: [{ field: null, word: 'acme', match: 'ACME', span: [7, 11] }] });
  });

  test('a wordlist policy by id, and edits take effect on the next request', async () => {
    const created = await t.request('POST', '/v1/wordlist', { body: { name: 'no key', words: ['banana'] } });
    const policy = { id: `wordlist_${created.body.id}` };
    assert.equal((await moderate('a banana', policy)).policies[0].flagged, true);
    assert.equal((await moderate('a cherry', policy)).policies[0].flagged, false);
    await t.request('POST', `/v1/wordlist/${created.body.id}/words`, { body: { words: ['cherry'] } });
    assert.equal((await moderate('a cherry', policy)).policies[0].flagged, true);
    await t.request('DELETE', `/v1/wordlist/${created.body.id}/words?words=banana`);
    assert.equal((await moderate('a banana', policy)).policies[0].flagged, false);
  });

  test('a channel can run a wordlist policy', async () => {
    await t.request('POST', '/v1/wordlist', { body: { name: 'channel list', key: 'chan', words: ['forbidden'] } });
    const channel = await t.request('POST', '/v1/channels', { body: { key: 'wl', name: 'wl', policies: [{ id: 'wordlist_chan', match: 'stem' }] } });
    assert.equal(channel.status, 201, JSON.stringify(channel.body));
    const response = await t.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: 'that is f0rbidden' }, channel: 'wl', doNotStore: true } });
    assert.equal(response.body.policies[0].id, 'wordlist_chan');
    assert.equal(response.body.policies[0].flagged, true);
  });

  test('unknown settings and a missing list are reported, never silently passed', async () => {
    const bad = await t.request('POST', '/v1/moderate', {
      body: { content: { type: 'text', text: 'x' }, policies: [{ id: 'wordlist_promo', mode: 'denylist' }] },
    });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.issues[0].path, '/policies/0/mode');
    const missing = await moderate('free', { id: 'wordlist_nope' });
    assert.equal(missing.meta.status, 'partial_success');
    assert.match(missing.errors[0].message, /Wordlist "nope" does not exist/);
  });
});
