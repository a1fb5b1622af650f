import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import ModerationAPI, { webhooks } from '@moderation-api/sdk';
import { startTestServer, type TestServer, sdkClient } from './helpers.ts';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './support/webhook-receiver.ts';
import { verifyTimestampedSignature } from '../src/services/webhooks.ts';

const RUDE = 'What the fuck is wrong with you';

describe('webhooks: signed, retried, logged, redeliverable', () => {
  let t: TestServer;
  let client: ModerationAPI;
  let receiver: WebhookReceiver;
  let secret: string;
  before(async () => {
    t = await startTestServer({
      ALLOW_PRIVATE_OUTBOUND: 'true',
      WEBHOOK_RETRY_BASE_MS: '20',
      WEBHOOK_MAX_ATTEMPTS: '5',
      OUTBOX_POLL_MS: '20',
    });
    client = sdkClient(t);
    receiver = await startWebhookReceiver();
    secret = (await t.request('GET', '/v1/webhook-secret')).body.secret;
  });
  after(async () => {
    await t.close();
    await receiver.close();
  });

  const ofType = (type: string) => receiver.received.filter((r) => r.json?.type === type);
  const createHook = async (body: Record<string, unknown>) => {
    const response = await t.request('POST', '/v1/webhooks', { body });
    assert.equal(response.status, 201, JSON.stringify(response.body));
    return response.body as { id: string };
  };
  const deliveries = async (webhookId: string) => (await t.request('GET', `/v1/webhooks/${webhookId}/deliveries?limit=100`)).body.deliveries as Array<Record<string, any>>;

  test('new queue items reach a subscribed webhook, signed so the SDK verifier accepts them', async () => {
    const hook = await createHook({ name: 'new items', url: receiver.url, events: ['QUEUE_ITEM_NEW'] });
    const queue = (await t.request('POST', '/v1/queue', { body: { name: 'Flagged', filter: { flagged: 'FLAGGED' } } })).body.queue;
    await client.content.submit({ content: { type: 'text', text: RUDE }, contentId: 'w-1', authorId: 'henry', conversationId: 'c-9', metadata: { thread: 't1' } });
    await client.content.submit({ content: { type: 'text', text: 'Have a nice day' }, contentId: 'w-clean' });
    await receiver.waitFor(() => ofType('QUEUE_ITEM_NEW').length >= 1);
    const [delivery] = ofType('QUEUE_ITEM_NEW') as [ReceivedWebhook];
    const event = webhooks.constructEvent(delivery.raw, String(delivery.headers['modapi-signature']), secret);
    assert.equal(event.type, 'QUEUE_ITEM_NEW');
    assert.equal(event.item.id, 'w-1');
    assert.equal(event.item.flagged, true);
    assert.equal(event.item.content, RUDE);
    assert.equal(event.item.authorId, 'henry');
    assert.equal(event.item.contextId, 'c-9');
    assert.deepEqual(event.item.metadata, { thread: 't1' });
    assert.ok(event.item.labels.some((l) => l.label === 'profanity' && l.flagged));
    assert.deepEqual(event.queue, { id: queue.id, name: 'Flagged' });
    assert.equal(delivery.headers['x-om-event-id'], event.id);
    assert.ok(verifyTimestampedSignature(delivery.raw.toString('utf8'), String(delivery.headers['x-om-signature']), secret));
    assert.ok(!verifyTimestampedSignature(delivery.raw.toString('utf8'), String(delivery.headers['x-om-signature']), secret, 300, Date.now() + 3_600_000));
    assert.throws(() => webhooks.constructEvent(delivery.raw, String(delivery.headers['modapi-signature']), 'wrong-secret'));
    // The clean item matches no queue: no event for it.
    assert.ok(!ofType('QUEUE_ITEM_NEW').some((r) => r.json.item.id === 'w-clean'));
    // The receiver sees the request before the sender has logged the delivery (it logs the response): wait for the row.
    let log: Array<Record<string, any>> = [];
    for (let i = 0; i < 100 && log.length < 1; i++) {
      log = await deliveries(hook.id);
      if (log.length < 1) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(log.length, 1);
    assert.equal(log[0]!.success, true);
    assert.equal(log[0]!.statusCode, 200);
    await t.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('action and author events carry the action, the value and the author with metadata', async () => {
    const projectHook = await createHook({ name: 'authors', url: receiver.url, events: ['AUTHOR_BLOCKED', 'QUEUE_ITEM_ACTION'] });
    await client.content.submit({ content: { type: 'text', text: RUDE }, contentId: 'w-2', authorId: 'ivy' });
    assert.equal((await t.request('PUT', '/v1/authors/ivy', { body: { metadata: { plan: 'gold', email_verified: true } } })).status, 200);
    const action = await client.actions.create({ name: 'Flag for legal', key: 'legal', freeText: true, webhooks: [{ name: 'legal team', url: receiver.url }] });
    await client.actions.execute.execute({ actionKey: 'legal', contentIds: ['w-2'], value: 'copyright' });
    await client.actions.execute.execute({ actionKey: 'block', authorIds: ['ivy'], value: 'abuse' });
    await receiver.waitFor(() => ofType('AUTHOR_BLOCKED').length >= 1 && ofType('QUEUE_ITEM_ACTION').length >= 2);
    // One event, two recipients (the action webhook and the project webhook): same event id.
    const itemActions = ofType('QUEUE_ITEM_ACTION');
    assert.equal(new Set(itemActions.map((r) => r.json.id)).size, 1);
    const itemAction = itemActions[0]!.json;
    assert.deepEqual(itemAction.action, { id: action.id, key: 'legal', name: 'Flag for legal', value: 'copyright', type: null });
    assert.equal(itemAction.item.id, 'w-2');
    assert.equal(itemAction.author.external_id, 'ivy');
    assert.deepEqual(itemAction.author.metadata, { plan: 'gold', email_verified: true });
    const blocked = ofType('AUTHOR_BLOCKED')[0]!.json;
    assert.equal(blocked.author.status, 'blocked');
    assert.equal(blocked.author.block.reason, 'abuse');
    // Executed by the legacy alias 'block'; events name the action by its hosted key.
    assert.equal(blocked.action.key, 'AUTHOR_BLOCK');
    assert.equal(blocked.author.metadata.plan, 'gold');
    await t.request('DELETE', `/v1/webhooks/${projectHook.id}`);
    await client.actions.delete(action.id);
  });

  test('a receiver failing 3 times then answering 200 gets the event; the log shows every attempt with one event id', async () => {
    const hook = await createHook({ name: 'flaky', url: `${receiver.url}?flaky`, events: ['QUEUE_ITEM_COMPLETED'] });
    receiver.respond = ({ attemptForEvent }) => (attemptForEvent <= 3 ? 503 : 200);
    const queue = (await t.request('POST', '/v1/queue', { body: { name: 'everything' } })).body.queue;
    await client.queue.items.resolve('w-2', { id: queue.id, comment: 'done' });
    await receiver.waitFor(() => ofType('QUEUE_ITEM_COMPLETED').some((r) => r.status === 200));
    const attempts = ofType('QUEUE_ITEM_COMPLETED');
    assert.deepEqual(attempts.map((r) => r.status), [503, 503, 503, 200]);
    assert.equal(new Set(attempts.map((r) => r.json.id)).size, 1);
    assert.deepEqual(attempts.map((r) => r.headers['x-om-delivery-attempt']), ['1', '2', '3', '4']);
    const completed = attempts[3]!.json;
    assert.equal(completed.item.id, 'w-2');
    assert.equal(completed.comment, 'done');
    let log: Array<Record<string, any>> = [];
    for (let i = 0; i < 100 && log.length < 4; i++) {
      log = await deliveries(hook.id);
      if (log.length < 4) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(log.map((d) => [d.attempt, d.statusCode, d.success]).reverse(), [[1, 503, false], [2, 503, false], [3, 503, false], [4, 200, true]]);
    assert.ok(log.every((d) => d.eventId === completed.id));
    receiver.respond = () => 200;
    await t.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('a receiver that never succeeds shows every attempt in the log; manual redelivery sends the same event again', async () => {
    const hook = await createHook({ name: 'down', url: receiver.url, events: ['AUTHOR_UNBLOCKED'] });
    receiver.respond = () => 500;
    await client.actions.execute.execute({ actionKey: 'unblock', authorIds: ['ivy'] });
    let log: Array<Record<string, any>> = [];
    for (let i = 0; i < 500 && log.length < 5; i++) {
      log = await deliveries(hook.id);
      if (log.length < 5) await new Promise((r) => setTimeout(r, 20));
    }
    assert.deepEqual(log.map((d) => d.attempt).reverse(), [1, 2, 3, 4, 5]);
    assert.ok(log.every((d) => d.success === false && d.statusCode === 500));
    // The fifth attempt's log row is written inside the delivery, before the outbox marks the event given up.
    let lastError = '';
    for (let i = 0; i < 250 && !lastError.startsWith('gave up'); i++) {
      const { rows } = await t.server.db.query<{ last_error: string }>(
        "SELECT last_error FROM outbox WHERE project_id = $1 AND topic = 'webhook.deliver' AND payload->>'webhookId' = $2",
        [t.projectId, hook.id],
      );
      lastError = rows[0]!.last_error;
      if (!lastError.startsWith('gave up')) await new Promise((r) => setTimeout(r, 20));
    }
    assert.match(lastError, /^gave up/);

    receiver.respond = () => 200;
    const redelivered = await t.request('POST', `/v1/webhook-deliveries/${log[0]!.id}/redeliver`);
    assert.equal(redelivered.status, 202);
    assert.equal(redelivered.body.eventId, log[0]!.eventId);
    await receiver.waitFor(() => ofType('AUTHOR_UNBLOCKED').some((r) => r.status === 200));
    const success = ofType('AUTHOR_UNBLOCKED').find((r) => r.status === 200)!;
    assert.equal(success.json.id, log[0]!.eventId);
    assert.equal(success.json.author.status, 'enabled');
    for (let i = 0; i < 100 && log.length < 6; i++) {
      log = await deliveries(hook.id);
      if (log.length < 6) await new Promise((r) => setTimeout(r, 20));
    }
    assert.equal(log[0]!.manual, true);
    assert.equal(log[0]!.success, true);
    assert.equal((await t.request('POST', '/v1/webhook-deliveries/whd_nope/redeliver')).status, 404);
    await t.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('after a rotation the new secret signs modapi-signature and the old one a second header', async () => {
    const hook = await createHook({ name: 'rotation', url: receiver.url, events: ['AUTHOR_SUSPENDED'] });
    const rotated = (await t.request('POST', '/v1/webhook-secret/rotate')).body;
    assert.notEqual(rotated.secret, secret);
    assert.ok(rotated.previousSecretValidUntil > Date.now() + 23 * 3_600_000);
    await client.actions.execute.execute({ actionKey: 'temporary_block', authorIds: ['ivy'], duration: 60_000 });
    await receiver.waitFor(() => ofType('AUTHOR_SUSPENDED').length >= 1);
    const delivery = ofType('AUTHOR_SUSPENDED')[0]!;
    assert.equal(webhooks.constructEvent(delivery.raw, String(delivery.headers['modapi-signature']), rotated.secret).type, 'AUTHOR_SUSPENDED');
    assert.equal(webhooks.constructEvent(delivery.raw, String(delivery.headers['modapi-signature-previous']), secret).type, 'AUTHOR_SUSPENDED');
    const header = String(delivery.headers['x-om-signature']);
    assert.ok(verifyTimestampedSignature(delivery.raw.toString('utf8'), header, rotated.secret));
    assert.ok(verifyTimestampedSignature(delivery.raw.toString('utf8'), header, secret));
    assert.equal((await t.request('GET', '/v1/webhook-secret')).body.secret, rotated.secret);
    secret = rotated.secret;
    await t.request('DELETE', `/v1/webhooks/${hook.id}`);
  });

  test('webhook management: validation, update, tenant isolation', async () => {
    const hook = await createHook({ name: 'm', url: receiver.url });
    assert.equal((await t.request('GET', `/v1/webhooks/${hook.id}`)).body.events.length > 5, true);
    const updated = await t.request('PUT', `/v1/webhooks/${hook.id}`, { body: { enabled: false, events: ['AUTHOR_BLOCKED'] } });
    assert.equal(updated.body.enabled, false);
    assert.deepEqual(updated.body.events, ['AUTHOR_BLOCKED']);
    assert.equal((await t.request('POST', '/v1/webhooks', { body: { name: 'x', url: receiver.url, events: ['NOPE'] } })).status, 400);
    assert.equal((await t.request('POST', '/v1/webhooks', { body: { name: 'x', url: 'not a url' } })).status, 400);
    const other = await t.newProject();
    assert.equal((await t.request('GET', `/v1/webhooks/${hook.id}`, { key: other.apiKey })).status, 404);
    assert.equal((await t.request('GET', `/v1/webhooks/${hook.id}/deliveries`, { key: other.apiKey })).status, 404);
    assert.notEqual((await t.request('GET', '/v1/webhook-secret', { key: other.apiKey })).body.secret, secret);
  });
});
