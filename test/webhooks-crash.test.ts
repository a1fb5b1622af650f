import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabaseUrl } from '../src/db/testing.ts';
import { startWebhookReceiver } from './support/webhook-receiver.ts';

/**
 * The server process is killed (SIGKILL) while webhook deliveries are pending
 * and in flight. After a restart on the same store every event reaches the
 * receiver; duplicates carry the same event id and body.
 */

const ITEMS = 30;
const RUDE = 'What the fuck is wrong with you';

interface Child {
  process: ChildProcess;
  baseURL: string;
}

async function startChild(env: Record<string, string>): Promise<Child> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const baseURL = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API base URL:\s+(\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  child.removeAllListeners('exit');
  return { process: child, baseURL };
}

async function kill(child: Child): Promise<void> {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return;
  const exited = new Promise((resolve) => child.process.once('exit', resolve));
  child.process.kill('SIGKILL');
  await exited;
}

const children: Child[] = [];
const cleanups: Array<() => Promise<void>> = [];
after(async () => {
  for (const child of children) await kill(child);
  for (const cleanup of cleanups) await cleanup();
});

test('no webhook is lost when the server is killed with deliveries pending; duplicates share the event id', { timeout: 180_000 }, async () => {
  const receiver = await startWebhookReceiver();
  cleanups.push(() => receiver.close());
  const database = await createTestDatabaseUrl();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'om-crash-'));
  cleanups.push(async () => {
    await database.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  const apiKey = `crash_${randomBytes(18).toString('base64url')}`;
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    BOOTSTRAP_API_KEY: apiKey,
    ALLOW_PRIVATE_OUTBOUND: 'true',
    OUTBOX_POLL_MS: '50',
    OUTBOX_LEASE_MS: '1000',
    WEBHOOK_RETRY_BASE_MS: '50',
    WEBHOOK_RETRY_CAP_MS: '500',
    WEBHOOK_MAX_ATTEMPTS: '50',
  };
  if (database.url) env.DATABASE_URL = database.url;
  else delete env.DATABASE_URL;

  const call = async (baseURL: string, method: string, url: string, body?: unknown) => {
    const response = await fetch(`${baseURL}${url}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = await response.json();
    assert.ok(response.ok, `${method} ${url}: ${response.status} ${JSON.stringify(json)}`);
    return json;
  };

  // Phase 1: the receiver holds every request, so deliveries are in flight when the server dies.
  receiver.delayMs = 60_000;
  const first = await startChild(env);
  children.push(first);
  await call(first.baseURL, 'POST', '/webhooks', { name: 'everything', url: receiver.url, events: ['QUEUE_ITEM_NEW', 'QUEUE_ITEM_ACTION'] });
  await call(first.baseURL, 'POST', '/queue', { name: 'all items' });
  const contentIds = Array.from({ length: ITEMS }, (_, i) => `crash-${i}`);
  for (const contentId of contentIds) {
    await call(first.baseURL, 'POST', '/moderate', { content: { type: 'text', text: `${RUDE} ${contentId}` }, contentId, authorId: 'mallory' });
  }
  await call(first.baseURL, 'POST', '/actions/execute', { actionKey: 'reject', contentIds, value: 'spam wave' });
  await receiver.waitFor((received) => received.length >= 3, 30_000);
  await kill(first);
  const receivedBeforeKill = receiver.received.length;
  const inFlight = new Set(receiver.received.map((r) => r.json.id as string));

  // Phase 2: a restarted server on the same store delivers everything.
  receiver.delayMs = 0;
  const second = await startChild(env);
  children.push(second);
  const expected = ITEMS * 2;
  // Only answers sent after the restart reached the server.
  const delivered = () => new Set(receiver.received.slice(receivedBeforeKill).filter((r) => r.status === 200).map((r) => r.json.id as string));
  await receiver.waitFor(() => delivered().size >= expected, 120_000);
  // A little longer, so late duplicates are counted too.
  await new Promise((r) => setTimeout(r, 1_500));

  const byEvent = new Map<string, string[]>();
  for (const request of receiver.received) {
    const id = String(request.headers['x-om-event-id']);
    assert.equal(request.json.id, id, 'the header and the body name the same event');
    byEvent.set(id, [...(byEvent.get(id) ?? []), request.raw.toString('utf8')]);
  }
  assert.equal(byEvent.size, expected, 'every event, and no other, reached the receiver');
  for (const bodies of byEvent.values()) assert.equal(new Set(bodies).size, 1, 'every copy of an event has the same body');
  assert.equal(delivered().size, expected, 'every event was answered 200 after the restart');
  for (const id of inFlight) assert.ok(byEvent.get(id)!.length >= 2, 'an event in flight at the kill is delivered again, with the same id');
  const types = [...receiver.received.slice(receivedBeforeKill).filter((r) => r.status === 200).reduce((m, r) => m.set(r.json.id, r.json), new Map<string, any>()).values()];
  assert.deepEqual(types.filter((e) => e.type === 'QUEUE_ITEM_NEW').map((e) => e.item.id).sort(), [...contentIds].sort());
  assert.deepEqual(types.filter((e) => e.type === 'QUEUE_ITEM_ACTION').map((e) => e.item.id).sort(), [...contentIds].sort());
  const duplicates = receiver.received.length - byEvent.size;
  process.stdout.write(
    `# crash test: ${expected} events, ${inFlight.size} in flight at the kill, ${receiver.received.length} requests in all, ${duplicates} duplicates (same event id), ${delivered().size} events answered 200 after the restart\n`,
  );
  assert.ok(duplicates >= inFlight.size);
  await kill(second);
});
