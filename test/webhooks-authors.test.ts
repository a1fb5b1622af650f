import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { webhooks } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';
import { startWebhookReceiver, type WebhookReceiver } from './support/webhook-receiver.ts';

const RUDE = 'What the fuck is wrong with you';

describe('author webhooks: AUTHOR_UPDATED and AUTHOR_TRUST_LEVEL_CHANGED', () => {
  let t: TestServer;
  let client: ModerationAPI;
  let receiver: WebhookReceiver;
  let secret: string;
  before(async () => {
    t = await startTestServer({ ALLOW_PRIVATE_OUTBOUND: 'true', WEBHOOK_RETRY_BASE_MS: '20', OUTBOX_POLL_MS: '20' });
    client = sdkClient(t);
    receiver = await startWebhookReceiver();
    secret = (await t.request('GET', '/v1/webhook-secret')).body.secret;
    const hook = await t.request('POST', '/v1/webhooks', {
      body: { name: 'authors', url: receiver.url, events: ['AUTHOR_UPDATED', 'AUTHOR_TRUST_LEVEL_CHANGED'] },
    });
    assert.equal(hook.status, 201);
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const eventsFor = (type: string, externalId: string) =>
    receiver.received.filter((r) => r.json?.type === type && r.json.author?.external_id === externalId).map((r) => r.json);
  const storedEvents = async (type: string, projectId = t.projectId) => {
    const { rows } = await t.server.db.query<{ n: number }>('SELECT count(*) AS n FROM webhook_events WHERE project_id = $1 AND type = $2', [projectId, type]);
    return rows[0]!.n;
  };

  test('an update that sets and then resets the manual trust level announces both, with the author and metadata', async () => {
    assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: 'ann' } })).status, 200);
    const set = await t.request('PUT', '/v1/authors/ann', { body: { manual_trust_level: 4, metadata: { plan: 'gold' } } });
    assert.equal(set.status, 200);
    await receiver.waitFor(() => eventsFor('AUTHOR_UPDATED', 'ann').length >= 1 && eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'ann').length >= 1);

    const [updated] = eventsFor('AUTHOR_UPDATED', 'ann');
    assert.deepEqual([...updated.changedFields].sort(), ['manual_trust_level', 'metadata']);
    assert.deepEqual(updated.author.metadata, { plan: 'gold' });
    assert.deepEqual(updated.author.trust_level, { level: 4, manual: true });
    const [trust] = eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'ann');
    assert.equal(trust.previousTrustLevel, 0);
    assert.equal(trust.trustLevel, 4);
    assert.equal(trust.cause, 'update');
    assert.deepEqual(trust.author.metadata, { plan: 'gold' });
    // Signed like every event: the SDK verifier accepts it.
    const delivery = receiver.received.find((r) => r.json?.id === trust.id)!;
    assert.equal(webhooks.constructEvent(delivery.raw, String(delivery.headers['modapi-signature']), secret).type, 'AUTHOR_TRUST_LEVEL_CHANGED');

    assert.equal((await t.request('PUT', '/v1/authors/ann', { body: { manual_trust_level: null } })).status, 200);
    await receiver.waitFor(() => eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'ann').length >= 2);
    const reset = eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'ann')[1];
    assert.equal(reset.previousTrustLevel, 4);
    assert.equal(reset.trustLevel, 0);
    assert.deepEqual(reset.author.trust_level, { level: 0, manual: false });
  });

  test('an update that changes nothing, or a refused one, announces nothing; a name change is not a trust change', async () => {
    assert.equal((await t.request('POST', '/v1/authors', { body: { external_id: 'bob', name: 'Bob' } })).status, 200);
    const updatedBefore = await storedEvents('AUTHOR_UPDATED');
    const trustBefore = await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED');
    assert.equal((await t.request('PUT', '/v1/authors/bob', { body: { name: 'Bob' } })).status, 200);
    assert.equal((await t.request('PUT', '/v1/authors/bob', { body: { manual_trust_level: 9 } })).status, 400);
    assert.equal((await t.request('PUT', '/v1/authors/bob', { body: { first_seen: Date.now() + 86_400_000 } })).status, 400);
    assert.equal(await storedEvents('AUTHOR_UPDATED'), updatedBefore);
    assert.equal((await t.request('PUT', '/v1/authors/bob', { body: { name: 'Robert' } })).status, 200);
    assert.equal(await storedEvents('AUTHOR_UPDATED'), updatedBefore + 1);
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore);
    await receiver.waitFor(() => eventsFor('AUTHOR_UPDATED', 'bob').length >= 1);
    assert.deepEqual(eventsFor('AUTHOR_UPDATED', 'bob')[0].changedFields, ['name']);
    assert.equal(eventsFor('AUTHOR_UPDATED', 'bob')[0].author.name, 'Robert');
  });

  test('a submission that moves the trust level announces it; one that does not, does not', async () => {
    const trustBefore = await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED');
    await client.content.submit({ content: { type: 'text', text: 'Have a nice day' }, contentId: 's-1', authorId: 'carl' });
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore);
    // One flagged item of two is more than 5% of the recent items: New → Untrusted.
    await client.content.submit({ content: { type: 'text', text: RUDE }, contentId: 's-2', authorId: 'carl' });
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore + 1);
    await receiver.waitFor(() => eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'carl').length >= 1);
    const [event] = eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'carl');
    assert.equal(event.cause, 'submission');
    assert.equal(event.previousTrustLevel, 0);
    assert.equal(event.trustLevel, -1);
    assert.equal(event.author.metrics.total_content, 2);
    assert.equal(event.author.metrics.flagged_content, 1);
    assert.deepEqual(event.author.metadata, {});
    // The stored level is the new one, so a further flagged item announces nothing.
    await client.content.submit({ content: { type: 'text', text: RUDE }, contentId: 's-3', authorId: 'carl' });
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore + 1);
    assert.equal((await t.request('GET', '/v1/authors?sortBy=trustLevel&sortDirection=asc')).body.authors[0].external_id, 'carl');
  });

  test('a read that notices a time-based promotion stores the new level and announces it', async () => {
    for (let i = 0; i < 5; i++) {
      await client.content.submit({ content: { type: 'text', text: `Have a nice day ${i}` }, contentId: `e-${i}`, authorId: 'eve' });
    }
    // Eight days of membership pass (written behind the API's back, as time would).
    await t.server.db.query("UPDATE authors SET first_seen = first_seen - 8 * 86400000 WHERE project_id = $1 AND external_id = 'eve'", [t.projectId]);
    const trustBefore = await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED');
    assert.equal((await t.request('GET', '/v1/authors/eve')).body.trust_level.level, 1);
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore + 1);
    // Stored now: reading again announces nothing more.
    assert.equal((await t.request('GET', '/v1/authors/eve')).body.trust_level.level, 1);
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED'), trustBefore + 1);
    await receiver.waitFor(() => eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'eve').length >= 1);
    const [event] = eventsFor('AUTHOR_TRUST_LEVEL_CHANGED', 'eve');
    assert.equal(event.cause, 'time');
    assert.equal(event.previousTrustLevel, 0);
    assert.equal(event.trustLevel, 1);
  });

  test('a project without a subscribed webhook stores no author events', async () => {
    const other = await t.newProject();
    const otherClient = sdkClient(t, other.apiKey);
    // Subscribed to something else only.
    assert.equal((await t.request('POST', '/v1/webhooks', { key: other.apiKey, body: { name: 'x', url: receiver.url, events: ['AUTHOR_BLOCKED'] } })).status, 201);
    await otherClient.content.submit({ content: { type: 'text', text: RUDE }, contentId: 'o-1', authorId: 'dora' });
    const author = await t.request('GET', '/v1/authors/dora', { key: other.apiKey });
    assert.equal(author.body.trust_level.level, -1);
    assert.equal((await t.request('PUT', '/v1/authors/dora', { key: other.apiKey, body: { manual_trust_level: 2 } })).status, 200);
    assert.equal(await storedEvents('AUTHOR_TRUST_LEVEL_CHANGED', other.projectId), 0);
    assert.equal(await storedEvents('AUTHOR_UPDATED', other.projectId), 0);
    const { rows } = await t.server.db.query<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE project_id = $1 AND topic = 'webhook.deliver'", [other.projectId]);
    assert.equal(rows[0]!.n, 0);
  });
});
