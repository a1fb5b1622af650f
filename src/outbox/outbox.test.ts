import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from '../db/database.ts';
import { openTestDatabase } from '../db/testing.ts';
import { enqueue, OutboxDispatcher, type OutboxEvent, type TopicHandler } from './outbox.ts';

let db: Database;
before(async () => {
  db = await openTestDatabase();
  await db.query("INSERT INTO projects (id, name, created_at) VALUES ('p1', 'p', 0)");
});
after(() => db.close());

const handlerOf = (fn: (e: OutboxEvent) => Promise<void>, maxAttempts = 3): TopicHandler => ({ handle: fn, maxAttempts, backoffMs: () => 0 });

test('events enqueued in a rolled-back transaction never exist', async () => {
  await assert.rejects(
    db.transaction(async (tx) => {
      await enqueue(tx, { projectId: 'p1', topic: 'never', payload: {} });
      throw new Error('rollback');
    }),
  );
  const { rows } = await db.query<{ n: number }>("SELECT count(*) AS n FROM outbox WHERE topic = 'never'");
  assert.equal(rows[0]!.n, 0);
});

test('a failing handler is retried until it succeeds, then the event is done', async () => {
  let calls = 0;
  const dispatcher = new OutboxDispatcher(db, new Map([['flaky', handlerOf(async () => { if (++calls < 3) throw new Error(`fail ${calls}`); })]]));
  const id = await db.transaction((tx) => enqueue(tx, { projectId: 'p1', topic: 'flaky', payload: { n: 1 } }));
  for (let i = 0; i < 5; i++) await dispatcher.runOnce();
  assert.equal(calls, 3);
  const { rows } = await db.query<{ done_at: number | null; attempts: number; last_error: string | null }>('SELECT done_at, attempts, last_error FROM outbox WHERE id = $1', [id]);
  assert.ok(rows[0]!.done_at !== null);
  assert.equal(rows[0]!.attempts, 3);
  assert.equal(rows[0]!.last_error, null);
});

test('an event is given up after maxAttempts, keeping its last error', async () => {
  const dispatcher = new OutboxDispatcher(db, new Map([['doomed', handlerOf(async () => { throw new Error('nope'); }, 2)]]));
  const id = await db.transaction((tx) => enqueue(tx, { projectId: 'p1', topic: 'doomed', payload: {} }));
  for (let i = 0; i < 4; i++) await dispatcher.runOnce();
  const { rows } = await db.query<{ done_at: number | null; attempts: number; last_error: string }>('SELECT done_at, attempts, last_error FROM outbox WHERE id = $1', [id]);
  assert.equal(rows[0]!.attempts, 2);
  assert.match(rows[0]!.last_error, /gave up: nope/);
});

test('future events wait until they are due', async () => {
  const seen: number[] = [];
  const dispatcher = new OutboxDispatcher(db, new Map([['timed', handlerOf(async (e) => void seen.push(e.payload.n as number))]]));
  const now = Date.now();
  await db.transaction((tx) => enqueue(tx, { projectId: 'p1', topic: 'timed', payload: { n: 7 }, availableAt: now + 60_000 }));
  await dispatcher.runOnce(now);
  assert.deepEqual(seen, []);
  await dispatcher.runOnce(now + 61_000);
  assert.deepEqual(seen, [7]);
});
