import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exited, persistentStore, runCli, startServerProcess } from './support/process.ts';
import { openDatabase } from '../src/db/database.ts';

const moderate = (url: string, key: string, body: unknown) =>
  fetch(`${url}/v1/moderate`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

/**
 * Sends `count` submissions to be stored, all at once, and `signal` to the server once `stopAfter`
 * of them have been answered, so that it lands while most are in flight. Resolves with the
 * contentIds the server acknowledged (200).
 */
async function submitWhileStopping(
  server: { url: string; child: ChildProcess },
  key: string,
  options: { prefix: string; count: number; stopAfter: number; signal: NodeJS.Signals },
): Promise<string[]> {
  let answered = 0;
  const inFlight = Array.from({ length: options.count }, (_, i) => `${options.prefix}-${i}`).map((contentId) =>
    moderate(server.url, key, { content: { type: 'text', text: `message ${contentId}` }, contentId }).then(
      (r) => {
        if (++answered === options.stopAfter) server.child.kill(options.signal);
        return r.status === 200 ? contentId : null;
      },
      () => null,
    ),
  );
  return (await Promise.all(inFlight)).filter((id): id is string => id !== null);
}

/** The given contentIds that the store does not hold, read directly while no server runs. */
async function missingFromStore(env: Record<string, string>, contentIds: readonly string[]): Promise<string[]> {
  const db = await openDatabase({ databaseUrl: env.DATABASE_URL ?? null, dataDir: env.DATA_DIR });
  try {
    const { rows } = await db.query<{ external_id: string }>('SELECT external_id FROM content_items WHERE external_id = ANY($1::text[])', [contentIds]);
    const stored = new Set(rows.map((row) => row.external_id));
    return contentIds.filter((id) => !stored.has(id));
  } finally {
    await db.close();
  }
}

describe('the server as a process: first start, CLI, shutdown', () => {
  let store: Awaited<ReturnType<typeof persistentStore>>;
  before(async () => {
    store = await persistentStore();
  });
  after(() => store.dispose());

  test('first start prints a working key once; later starts do not', async () => {
    const first = await startServerProcess(store.env);
    const key = /API key \(shown once, store it now\): (\S+)/.exec(first.output())?.[1];
    assert.ok(key, first.output());
    assert.match(first.output(), /Dashboard and API:\s+http:\/\/127\.0\.0\.1:\d+/);
    const r = await moderate(first.url, key, { content: { type: 'text', text: 'hello' }, contentId: 'first-start' });
    assert.equal(r.status, 200);
    // The first dashboard admin and a one-time password, printed beside the key; it signs in.
    assert.match(first.output(), /Dashboard admin:\s+admin@localhost/);
    const oneTime = /One-time password \(shown once[^)]*\): (\S+)/.exec(first.output())?.[1];
    assert.ok(oneTime, first.output());
    const signedIn = await fetch(`${first.url}/dashboard/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@localhost', password: oneTime }),
    });
    assert.equal(signedIn.status, 200);
    assert.equal(((await signedIn.json()) as { user: { mustChangePassword: boolean } }).user.mustChangePassword, true);
    first.child.kill('SIGTERM');
    assert.equal(await exited(first.child), 0);

    const second = await startServerProcess(store.env);
    assert.doesNotMatch(second.output(), /API key \(shown once/);
    assert.doesNotMatch(second.output(), /One-time password/);
    const again = await moderate(second.url, key, { content: { type: 'text', text: 'hello again' } });
    assert.equal(again.status, 200);
    second.child.kill('SIGTERM');
    await exited(second.child);

    // The CLI on the same store: create, list (prefix only), revoke.
    const created = await runCli(['keys', 'create', '--name', 'ci'], store.env);
    assert.equal(created.code, 0, created.stderr);
    const newKey = /API key \(shown once\): (\S+)/.exec(created.stdout)![1]!;
    const keyId = /key (key_\S+)/.exec(created.stdout)![1]!;
    const listed = await runCli(['keys', 'list'], store.env);
    assert.equal(listed.code, 0);
    assert.match(listed.stdout, new RegExp(keyId));
    assert.ok(!listed.stdout.includes(newKey), 'a listed key must not show the secret');

    const third = await startServerProcess(store.env);
    assert.equal((await moderate(third.url, newKey, { content: { type: 'text', text: 'x' } })).status, 200);
    third.child.kill('SIGTERM');
    await exited(third.child);

    const revoked = await runCli(['keys', 'revoke', keyId], store.env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await runCli(['keys', 'revoke', keyId], store.env)).code, 1, 'revoking twice is an error');
    const fourth = await startServerProcess(store.env);
    assert.equal((await moderate(fourth.url, newKey, { content: { type: 'text', text: 'x' } })).status, 401);
    assert.equal((await moderate(fourth.url, key, { content: { type: 'text', text: 'x' } })).status, 200);
    fourth.child.kill('SIGTERM');
    await exited(fourth.child);
  });

  test('the CLI beside a running server: refused on the embedded store, effective on PostgreSQL; never a false success', async () => {
    const key = `lifecycle_${randomBytes(16).toString('hex')}`;
    const fresh = await persistentStore();
    try {
      const server = await startServerProcess({ ...fresh.env, BOOTSTRAP_API_KEY: key });
      const created = await runCli(['keys', 'create', '--name', 'beside'], fresh.env);
      if (fresh.env.DATA_DIR) {
        // Two processes on one PGlite directory lose each other's writes: the second is refused.
        assert.equal(created.code, 1, created.stdout);
        assert.match(created.stderr, /in use by another Open Moderation process \(pid \d+\)/);
        assert.doesNotMatch(created.stdout, /API key/);
        const listed = await runCli(['keys', 'list'], fresh.env);
        assert.equal(listed.code, 1);
        assert.equal((await moderate(server.url, key, { content: { type: 'text', text: 'x' } })).status, 200);
        server.child.kill('SIGTERM');
        assert.equal(await exited(server.child), 0);
        // Stopped, the directory is free again.
        const after = await runCli(['keys', 'list'], fresh.env);
        assert.equal(after.code, 0, after.stderr);
      } else {
        assert.equal(created.code, 0, created.stderr);
        const newKey = /API key \(shown once\): (\S+)/.exec(created.stdout)![1]!;
        const keyId = /key (key_\S+)/.exec(created.stdout)![1]!;
        assert.equal((await moderate(server.url, newKey, { content: { type: 'text', text: 'x' } })).status, 200);
        assert.equal((await runCli(['keys', 'revoke', keyId], fresh.env)).code, 0);
        // Another process revoked it: the server's key cache lets it through for at most 5 s.
        const deadline = Date.now() + 8_000;
        let status = 200;
        while (status === 200 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 250));
          status = (await moderate(server.url, newKey, { content: { type: 'text', text: 'x' } })).status;
        }
        assert.equal(status, 401);
        server.child.kill('SIGTERM');
        await exited(server.child);
      }
    } finally {
      await fresh.dispose();
    }
  });

  test('a model that cannot be loaded stops the start, naming the model', async () => {
    const models = mkdtempSync(join(tmpdir(), 'om-models-'));
    try {
      cpSync(new URL('../models', import.meta.url).pathname, models, { recursive: true });
      writeFileSync(join(models, 'violence.oml'), 'not a model');
      const started = startServerProcess({ ...store.env, OPEN_MODERATION_MODELS_DIR: models });
      // Should it start after all, it must not outlive the test.
      void started.then(({ child }) => child.kill('SIGKILL'), () => {});
      await assert.rejects(started, (error: Error) => {
        assert.match(error.message, /server exited with 1 before listening/);
        assert.match(error.message, /The violence model \(.*violence\.oml\) cannot be loaded/);
        return true;
      });
    } finally {
      rmSync(models, { recursive: true, force: true });
    }
  });

  test('graceful shutdown: every acknowledged submission is stored', async () => {
    const key = `lifecycle_${randomBytes(16).toString('hex')}`;
    const fresh = await persistentStore();
    try {
      const server = await startServerProcess({ ...fresh.env, BOOTSTRAP_API_KEY: key });
      const acknowledged = await submitWhileStopping(server, key, { prefix: 'shutdown', count: 200, stopAfter: 10, signal: 'SIGTERM' });
      assert.equal(await exited(server.child), 0);
      assert.deepEqual(await missingFromStore(fresh.env, acknowledged), [], 'acknowledged submissions missing from the store');
      assert.ok(acknowledged.length > 0, 'some requests were answered before shutdown');
    } finally {
      await fresh.dispose();
    }
  });

  test('a crash (SIGKILL): every acknowledged submission is stored, and the server starts again on the same store', async () => {
    const key = `lifecycle_${randomBytes(16).toString('hex')}`;
    const fresh = await persistentStore();
    try {
      const server = await startServerProcess({ ...fresh.env, BOOTSTRAP_API_KEY: key });
      // The process dies without a chance to finish anything, while most requests are in flight.
      const count = 300;
      const acknowledged = await submitWhileStopping(server, key, { prefix: 'crash', count, stopAfter: 50, signal: 'SIGKILL' });
      await exited(server.child);
      assert.ok(acknowledged.length >= 50, `only ${acknowledged.length} requests were answered before the crash`);
      assert.ok(acknowledged.length < count, 'the crash came after every request was answered; it tests nothing');

      // The store recovers on the next start, with every acknowledged item in it.
      const restarted = await startServerProcess({ ...fresh.env, BOOTSTRAP_API_KEY: key });
      try {
        const r = await moderate(restarted.url, key, { content: { type: 'text', text: 'after the crash' }, contentId: 'after-crash' });
        assert.equal(r.status, 200);
      } finally {
        restarted.child.kill('SIGTERM');
        assert.equal(await exited(restarted.child), 0);
      }
      assert.deepEqual(await missingFromStore(fresh.env, [...acknowledged, 'after-crash']), [], 'acknowledged submissions missing from the store');
    } finally {
      await fresh.dispose();
    }
  });
});
