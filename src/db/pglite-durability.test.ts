import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { openDatabase } from './database.ts';

/** Talks to the embedded store's worker in its own message protocol, to read its file-sync count. */
async function withWorker<T>(dataDir: string, work: (ask: (message: object) => Promise<{ rows: Array<Record<string, unknown>> }>) => Promise<T>): Promise<T> {
  const worker = new Worker(new URL('./pglite-worker.mjs', import.meta.url), { workerData: { dataDir } });
  const replies = new Map<number, (reply: { rows: Array<Record<string, unknown>>; error?: { message: string } }) => void>();
  await new Promise<void>((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (message: { ready?: boolean; id?: number; rows: Array<Record<string, unknown>>; error?: { message: string } }) => {
      if (message.ready) return resolve();
      replies.get(message.id!)?.(message);
    });
  });
  let next = 1;
  const ask = (message: object) =>
    new Promise<{ rows: Array<Record<string, unknown>> }>((resolve, reject) => {
      const id = next++;
      replies.set(id, (reply) => (reply.error ? reject(new Error(reply.error.message)) : resolve(reply)));
      worker.postMessage({ id, ...message });
    });
  try {
    return await work(ask);
  } finally {
    await ask({ kind: 'close' });
    await worker.terminate();
  }
}

test('the embedded store on disk flushes every commit to the disk before it is acknowledged', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'om-durable-'));
  try {
    await withWorker(dataDir, async (ask) => {
      const settings = await ask({ kind: 'query', sql: "SELECT current_setting('fsync') AS fsync, current_setting('wal_sync_method') AS method" });
      assert.deepEqual(settings.rows, [{ fsync: 'on', method: 'fsync' }]);
      await ask({ kind: 'exec', sql: 'CREATE TABLE kept (n int)' });
      const before = Number((await ask({ kind: 'stats' })).rows[0]!.fileSyncs);
      for (let n = 0; n < 5; n++) await ask({ kind: 'query', sql: 'INSERT INTO kept VALUES ($1)', params: [n] });
      const after = Number((await ask({ kind: 'stats' })).rows[0]!.fileSyncs);
      // Each commit's WAL flush is a real fsync of the file, not PGlite's no-op.
      assert.ok(after - before >= 5, `expected a file sync per commit, saw ${after - before} for 5 commits`);
    });
    const reopened = await openDatabase({ databaseUrl: null, dataDir });
    try {
      assert.deepEqual((await reopened.query<{ n: number }>('SELECT n FROM kept ORDER BY n')).rows.map((row) => row.n), [0, 1, 2, 3, 4]);
    } finally {
      await reopened.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
