import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from './database.ts';
import { GroupCommitter } from './group-commit.ts';

let db: Database;
before(async () => {
  db = await openDatabase({ databaseUrl: null, inMemory: true });
  await db.exec('CREATE TABLE t (id int PRIMARY KEY, v text NOT NULL)');
});
after(() => db.close());

let batches = 0;
// One statement is its own transaction: a batch lands whole or not at all.
const insertAll = async (db: Database, items: readonly number[]) => {
  batches++;
  await db.query('INSERT INTO t SELECT id, $2 FROM unnest($1::int[]) AS id', [items, 'v']);
  return items.map((i) => i * 10);
};

test('concurrent writes share transactions and each resolves after its commit', async () => {
  batches = 0;
  const committer = new GroupCommitter(db, insertAll, { slots: 1 });
  const results = await Promise.all(Array.from({ length: 50 }, (_, i) => committer.write(i)));
  assert.deepEqual(results, Array.from({ length: 50 }, (_, i) => i * 10));
  assert.ok(batches < 50, `expected batching, got ${batches} batches`);
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM t');
  assert.equal(rows[0]!.n, 50);
});

test('one failing write does not fail the others in its batch', async () => {
  const committer = new GroupCommitter(db, insertAll, { slots: 1 });
  const outcomes = await Promise.allSettled([committer.write(100), committer.write(101), committer.write(0), committer.write(102)]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  const { rows } = await db.query<{ id: number }>('SELECT id FROM t WHERE id >= 100 ORDER BY id');
  assert.deepEqual(rows.map((r) => r.id), [100, 101, 102]);
  await committer.drained();
});

test('a failing write in a large batch is isolated by halving, not by retrying every item alone', async () => {
  const committer = new GroupCommitter(db, insertAll, { slots: 1 });
  // The first write runs alone; the 64 arriving meanwhile form one batch, in which id 0 (already stored) fails.
  const first = committer.write(1000);
  const rest = Array.from({ length: 64 }, (_, i) => committer.write(i === 37 ? 0 : 2000 + i));
  batches = 0;
  const outcomes = await Promise.allSettled([first, ...rest]);
  assert.equal(outcomes.filter((o) => o.status === 'rejected').length, 1);
  assert.equal((outcomes[38] as PromiseSettledResult<number>).status, 'rejected');
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM t WHERE id >= 2000 AND id < 2064');
  assert.equal(rows[0]!.n, 63);
  // One batch of 64, then halves down to the bad item: 1 + 2·log2(64) = 13 statements; one by one it took 65.
  assert.ok(batches <= 14, `isolating one bad write took ${batches} statements`);
  await committer.drained();
});

test('a further batch runs beside a busy one only once enough writes wait', async () => {
  const sizes: number[] = [];
  let inFlight = 0;
  let mostInFlight = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const gated = async (_db: Database, items: readonly number[]) => {
    sizes.push(items.length);
    mostInFlight = Math.max(mostInFlight, ++inFlight);
    await gate;
    inFlight--;
    return items.map((i) => i);
  };
  const committer = new GroupCommitter(db, gated, { slots: 3, minParallelBatch: 4 });
  const first = committer.write(0);
  const waiting = [1, 2, 3].map((i) => committer.write(i));
  // Three writes wait behind the running batch: fewer than 4, so no second batch yet.
  assert.deepEqual(sizes, [1]);
  const more = [4].map((i) => committer.write(i));
  assert.deepEqual(sizes, [1, 4]);
  release();
  assert.deepEqual(await Promise.all([first, ...waiting, ...more]), [0, 1, 2, 3, 4]);
  assert.equal(mostInFlight, 2);
  await committer.drained();
});

test('writes held below the minimum go out when the running batch ends, or after the wait limit if it does not', async () => {
  const sizes: number[] = [];
  const gates: Array<() => void> = [];
  const gated = async (_db: Database, items: readonly number[]) => {
    sizes.push(items.length);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((i) => i);
  };
  // Waiting limit far away: the held writes leave only when the running batch ends.
  const patient = new GroupCommitter(db, gated, { slots: 3, minParallelBatch: 10, maxParallelWaitMs: 60_000 });
  const first = patient.write(1);
  const held = [2, 3].map((i) => patient.write(i));
  assert.deepEqual(sizes, [1]);
  gates.shift()!();
  await first;
  await new Promise(setImmediate); // the committer refills its slots once the batch has settled
  assert.deepEqual(sizes, [1, 2]);
  gates.shift()!();
  assert.deepEqual(await Promise.all(held), [2, 3]);
  await patient.drained();

  // A batch that never ends: the held write leaves after the waiting limit, in a slot of its own.
  sizes.length = 0;
  const hurried = new GroupCommitter(db, gated, { slots: 3, minParallelBatch: 10, maxParallelWaitMs: 5 });
  const stuck = hurried.write(1);
  const late = hurried.write(2);
  assert.deepEqual(sizes, [1]);
  await new Promise((resolve) => setTimeout(resolve, 30));
  assert.deepEqual(sizes, [1, 1]);
  for (const open of gates.splice(0)) open();
  assert.deepEqual(await Promise.all([stuck, late]), [1, 2]);
  await hurried.drained();
});

test('a batch holding a write that may not overlap runs alone', async () => {
  const batches: number[][] = [];
  const gates: Array<() => void> = [];
  const gated = async (_db: Database, items: readonly number[]) => {
    batches.push([...items]);
    await new Promise<void>((resolve) => gates.push(resolve));
    return items.map((i) => i);
  };
  // Negative numbers stand for writes that need the store to themselves.
  const committer = new GroupCommitter(db, gated, { slots: 3, minParallelBatch: 1, overlaps: (item: number) => item >= 0 });
  const exclusive = committer.write(-1);
  const behind = [1, 2].map((i) => committer.write(i));
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(batches, [[-1]], 'nothing starts beside a batch that may not overlap, not even after the waiting limit');
  gates.shift()!();
  await exclusive;
  await new Promise(setImmediate);
  assert.deepEqual(batches, [[-1], [1, 2]]);
  // Writes that may overlap start beside a running batch; one that may not waits until every batch has ended.
  const beside = committer.write(3);
  assert.deepEqual(batches, [[-1], [1, 2], [3]]);
  const alone = committer.write(-2);
  await new Promise((resolve) => setTimeout(resolve, 20));
  assert.deepEqual(batches, [[-1], [1, 2], [3]]);
  for (const open of gates.splice(0)) open();
  assert.deepEqual(await Promise.all([...behind, beside]), [1, 2, 3]);
  await new Promise(setImmediate);
  assert.deepEqual(batches, [[-1], [1, 2], [3], [-2]]);
  gates.shift()!();
  assert.equal(await alone, -2);
  await committer.drained();
});
