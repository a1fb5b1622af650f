import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createQueue, startDashboard, watchErrors, type Dashboard } from './harness.ts';

/**
 * A receiver as a customer would write one from docs/queues-actions-webhooks.md: it checks
 * `x-om-signature` (t=<seconds>,v1=<hex HMAC-SHA256 of "t.body">) and `modapi-signature` (hex HMAC of
 * the body) against the secret it was given, and answers 401 when neither v1 nor the body HMAC match.
 */
function startVerifyingReceiver() {
  const seen: { body: string; verified: boolean; type: string; eventId: string }[] = [];
  const state = { secret: '' };
  const hmac = (secret: string, data: string) => createHmac('sha256', secret).update(data, 'utf8').digest('hex');
  const same = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const header = String(req.headers['x-om-signature'] ?? '');
      const parts = header.split(',').map((p) => p.split('='));
      const t = parts.find(([k]) => k === 't')?.[1] ?? '';
      const fresh = Math.abs(Date.now() / 1000 - Number(t)) < 300;
      const timestamped = fresh && parts.some(([k, v]) => k === 'v1' && v !== undefined && same(v, hmac(state.secret, `${t}.${body}`)));
      const plain = same(String(req.headers['modapi-signature'] ?? ''), hmac(state.secret, body));
      const verified = state.secret !== '' && timestamped && plain;
      seen.push({ body, verified, type: String(req.headers['x-om-event-type'] ?? ''), eventId: String(req.headers['x-om-event-id'] ?? '') });
      res.writeHead(verified ? 200 : 401).end();
    });
  });
  return new Promise<{ url: string; seen: typeof seen; state: typeof state; close: () => Promise<void> }>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/moderation`, seen, state, close: () => new Promise((r) => server.close(() => r())) }),
    ),
  );
}

async function until<T>(probe: () => T | undefined | Promise<T | undefined>, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('browser: webhooks, API keys and members', () => {
  let d: Dashboard;
  let receiver: Awaited<ReturnType<typeof startVerifyingReceiver>>;
  before(async () => {
    receiver = await startVerifyingReceiver();
    d = await startDashboard({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOX_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '60000' });
  });
  after(async () => {
    await d.close();
    await receiver.close();
  });

  test('rotating the webhook secret: the next delivery verifies with the new secret only', async () => {
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks' }).waitFor();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await dialog.getByLabel('Name').fill('Forum sync');
    await dialog.getByLabel('Endpoint URL').fill(receiver.url);
    await dialog.getByLabel('AUTHOR_UPDATED').check();
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('table', { name: 'Webhook endpoints' }).getByText('Forum sync').waitFor();

    // The secret is hidden until revealed.
    const secretBox = page.getByLabel('Current signing secret');
    assert.doesNotMatch(await secretBox.inputValue(), /whsec_/);
    await page.getByRole('button', { name: 'Reveal' }).click();
    await until(async () => ((await secretBox.inputValue()).startsWith('whsec_') ? true : undefined), 'the revealed secret');
    const oldSecret = await secretBox.inputValue();
    receiver.state.secret = oldSecret;

    await d.test.request('POST', '/v1/authors', { body: { external_id: 'forum-42', name: 'First' } });
    await d.test.request('PUT', '/v1/authors/forum-42', { body: { name: 'Second' } });
    const first = await until(() => receiver.seen[0], 'the first delivery');
    assert.equal(first.verified, true, 'the first delivery verifies with the secret shown');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const confirm = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal(await secretBox.inputValue(), oldSecret, 'cancelling changes nothing');
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    await confirm.getByRole('button', { name: 'Rotate now' }).click();
    await page.getByText('Signing secret rotated').waitFor();
    const newSecret = await secretBox.inputValue();
    assert.match(newSecret, /^whsec_/);
    assert.notEqual(newSecret, oldSecret);
    await page.getByTestId('secret-status').getByText(/previous secret still signs/).waitFor();

    // A receiver still on the old secret refuses the next delivery; with the new one it accepts it.
    receiver.state.secret = oldSecret;
    await d.test.request('PUT', '/v1/authors/forum-42', { body: { name: 'Third' } });
    // Deliveries are found by the author name they carry, not by arrival order: another author.updated event may
    // arrive between the rotation and the receiver's switch (and is refused too).
    const named = (name: string) => () => receiver.seen.find((s) => JSON.parse(s.body).author?.name === name);
    const refused = await until(named('Third'), 'the delivery after rotation');
    assert.equal(refused.verified, false, 'the old secret no longer verifies the main signatures');
    receiver.state.secret = newSecret;
    await d.test.request('PUT', '/v1/authors/forum-42', { body: { name: 'Fourth' } });
    const accepted = await until(named('Fourth'), 'the next delivery');
    assert.equal(accepted.verified, true, 'the next delivery verifies with the new secret');

    // The delivery log shows both outcomes, and the refused one can be sent again.
    await page.getByRole('link', { name: 'Deliveries' }).click();
    const attempts = page.getByRole('table', { name: 'Delivery attempts' });
    await attempts.getByText('Failed').first().waitFor();
    const rowOf = (eventId: string) => attempts.getByRole('row').filter({ hasText: eventId });
    await rowOf(accepted.eventId).getByText('Delivered').waitFor();
    await rowOf(refused.eventId).getByRole('cell', { name: '401', exact: true }).waitFor();
    await attempts.getByRole('button', { name: `Redeliver ${refused.eventId}`, exact: true }).click();
    const resent = await until(() => receiver.seen.find((s) => s.eventId === refused.eventId && s.verified), 'the redelivery');
    assert.equal(JSON.parse(resent.body).author.name, 'Third', 'the same event, sent again');
    await attempts.getByText('Redelivery').waitFor();
    assert.deepEqual(errors, []);
  });

  test('an API key is created, copied once, works, and once revoked gets 401 on /v1/moderate', async () => {
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await page.goto(`${d.test.url}/configure/api-keys`);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByRole('dialog', { name: 'Create an API key' }).getByLabel('Key name').fill('Browser test backend');
    await page.getByRole('button', { name: 'Create key' }).click();
    const keyBox = page.getByLabel('New API key');
    await keyBox.waitFor();
    const key = await keyBox.inputValue();
    assert.match(key, /^om_/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByRole('button', { name: /Copied|Selected/ }).waitFor();

    const moderate = () => d.test.request('POST', '/v1/moderate', { key, body: { content: { type: 'text', text: 'hello from the new key' } } });
    assert.equal((await moderate()).status, 200);
    await page.getByRole('button', { name: 'I have stored it' }).click();
    assert.equal(await page.getByLabel('New API key').count(), 0, 'the key is not shown again');
    const row = page.getByRole('table', { name: 'API keys' }).getByRole('row').filter({ hasText: 'Browser test backend' });
    await row.getByText(key.slice(0, 12)).waitFor();
    await page.reload();
    await row.getByRole('cell').nth(3).filter({ hasNotText: 'Never' }).waitFor();

    await row.getByRole('button', { name: 'Revoke Browser test backend' }).click();
    await page.getByRole('dialog', { name: /Revoke/ }).getByRole('button', { name: 'Revoke key' }).click();
    await page.getByText(/revoked: requests with it are refused/).waitFor();
    const refused = await moderate();
    assert.equal(refused.status, 401);
    assert.equal(refused.body.code, 'UNAUTHORIZED');
    // The list reloads after the revoke; revoked keys are hidden by default.
    await until(async () => ((await row.count()) === 0 ? true : undefined), 'the revoked key to leave the list');
    await page.getByLabel('Show revoked keys').check();
    await row.getByText('Revoked').waitFor();
  });

  test('an admin adds a moderator, who then cannot open configuration pages (hidden, and 403 from the server)', async () => {
    const queueId = await createQueue(d.test, 'Market reports');
    await createQueue(d.test, 'Everything else');
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await page.getByRole('link', { name: 'Members' }).click();
    await page.getByRole('button', { name: 'Add member' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a member' });
    await dialog.getByLabel('Email').fill('New.Moderator@example.com');
    await dialog.getByLabel(/^Moderator/).check();
    await dialog.getByLabel('Limit to some queues').check();
    await dialog.getByLabel('Market reports').check();
    await dialog.getByRole('button', { name: 'Add member' }).click();
    const otp = await page.getByLabel('One-time password').inputValue();
    assert.ok(otp.length >= 12);
    const row = page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: 'new.moderator@example.com' });
    await row.getByText('Market reports').waitFor();
    // The last admin cannot be removed.
    const adminRow = page.getByRole('table', { name: 'Members' }).getByRole('row').filter({ hasText: d.test.admin.email });
    assert.equal(await adminRow.getByRole('button', { name: /^Remove/ }).isDisabled(), true);

    const context = await d.newContext();
    const mod = await context.newPage();
    await mod.goto(`${d.test.url}/sign-in`);
    await mod.getByLabel('Email').fill('new.moderator@example.com');
    await mod.getByLabel('Password', { exact: true }).fill(otp);
    await mod.getByRole('button', { name: 'Sign in' }).click();
    await mod.getByLabel('One-time password').fill(otp);
    await mod.getByLabel('New password', { exact: true }).fill('moderator chosen passphrase');
    await mod.getByLabel('Repeat the new password').fill('moderator chosen passphrase');
    await mod.getByRole('button', { name: 'Save password' }).click();
    await mod.getByRole('heading', { name: 'Review queues' }).waitFor();
    await mod.getByRole('table', { name: 'Review queues' }).getByText('Market reports').waitFor();
    assert.equal(await mod.getByRole('table', { name: 'Review queues' }).getByText('Everything else').count(), 0, 'limited to the chosen queue');

    const nav = mod.getByRole('navigation', { name: 'Main' });
    for (const hidden of ['Webhooks', 'API keys', 'Members', 'Custom data']) assert.equal(await nav.getByRole('link', { name: hidden }).count(), 0, `${hidden} hidden`);
    assert.equal(await nav.getByText('Configure', { exact: true }).count(), 0);
    for (const url of ['/configure/webhooks', '/configure/api-keys', '/configure/members']) {
      await mod.goto(`${d.test.url}${url}`);
      await mod.getByRole('heading', { name: /You do not have access/ }).waitFor();
    }
    const statuses = await mod.evaluate(async (projectId) => {
      const out: number[] = [];
      for (const path of ['webhooks', 'webhook-secret', 'api-keys', 'members']) out.push((await fetch(`/dashboard/api/projects/${projectId}/${path}`)).status);
      return out;
    }, d.test.projectId);
    assert.deepEqual(statuses, [403, 403, 403, 403]);

    // The admin removes the moderator (the kit's confirm dialog): the row goes, and the moderator is refused the project.
    const queuesStatus = () => mod.evaluate(async (projectId) => (await fetch(`/dashboard/api/projects/${projectId}/queues`)).status, d.test.projectId);
    assert.equal(await queuesStatus(), 200);
    await row.getByRole('button', { name: /^Remove/ }).click();
    await page.getByRole('dialog', { name: 'Remove new.moderator@example.com?' }).getByRole('button', { name: 'Remove member' }).click();
    await until(async () => ((await row.count()) === 0 ? true : undefined), 'the removed member to leave the list');
    assert.notEqual(await queuesStatus(), 200);
    void queueId;
  });
});
