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

test('concurrent writes share transactions and each resolves after its commit', async () => {
  let transactions = 0;
  const counting: Database = { ...db, transaction: (work) => (transactions++, db.transaction(work)) };
  const committer = new GroupCommitter(counting, 1);
  const results = await Promise.all(
    Array.from({ length: 50 }, (_, i) => committer.run(async (tx) => (await tx.query('INSERT INTO t VALUES ($1, $2)', [i, `v${i}`]), i))),
  );
  assert.deepEqual(results, Array.from({ length: 50 }, (_, i) => i));
  assert.ok(transactions < 50, `expected batching, got ${transactions} transactions`);
  const { rows } = await db.query<{ n: number }>('SELECT count(*) AS n FROM t');
  assert.equal(rows[0]!.n, 50);
});

test('one failing write does not fail the others in its batch', async () => {
  const committer = new GroupCommitter(db, 1);
  const outcomes = await Promise.allSettled([
    committer.run((tx) => tx.query('INSERT INTO t VALUES (100, $1)', ['ok'])),
    committer.run((tx) => tx.query('INSERT INTO t VALUES (101, $1)', ['ok'])),
    committer.run((tx) => tx.query('INSERT INTO t VALUES (0, $1)', ['duplicate'])),
    committer.run((tx) => tx.query('INSERT INTO t VALUES (102, $1)', ['ok'])),
  ]);
  assert.deepEqual(outcomes.map((o) => o.status), ['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
  const { rows } = await db.query<{ id: number }>('SELECT id FROM t WHERE id >= 100 ORDER BY id');
  assert.deepEqual(rows.map((r) => r.id), [100, 101, 102]);
  await committer.drained();
});
