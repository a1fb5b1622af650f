import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { openDatabase, type Database } from './database.ts';

// Named statements on the embedded store take the worker's own Bind/Execute path;
// these check it gives the same answers as PGlite's general query path.
let db: Database;
before(async () => {
  db = await openDatabase({ databaseUrl: null, inMemory: true });
  await db.exec('CREATE TABLE p (id text PRIMARY KEY, n int8, ok boolean, tags text[], doc jsonb)');
});
after(() => db.close());

test('a named statement stores text, numbers, booleans, nulls and arrays exactly, and reads them back parsed', async () => {
  const awkward = ['a,b', 'quote " and \\ backslash', '{braces}', '', ' spaced ', 'NULL', 'ünïcödé 🎉'];
  const insert = 'INSERT INTO p (id, n, ok, tags, doc) VALUES ($1, $2, $3, $4::text[], $5::jsonb)';
  for (let i = 0; i < 3; i++) {
    const result = await db.query(insert, [`row-${i}`, 2 ** 40 + i, i % 2 === 0, [...awkward, null], JSON.stringify({ i, text: 'é"\\' })], { name: 'insert_p' });
    assert.equal(result.rowCount, 1);
  }
  const named = await db.query<{ id: string; n: number; ok: boolean; tags: Array<string | null>; doc: unknown }>(
    'SELECT id, n, ok, tags, doc FROM p WHERE id = ANY($1::text[]) ORDER BY id',
    [['row-0', 'row-2']],
    { name: 'select_p' },
  );
  const general = await db.query('SELECT id, n, ok, tags, doc FROM p WHERE id = ANY($1::text[]) ORDER BY id', [['row-0', 'row-2']]);
  assert.deepEqual(named.rows, general.rows);
  assert.deepEqual(named.rows[1], { id: 'row-2', n: 2 ** 40 + 2, ok: true, tags: [...awkward, null], doc: { i: 2, text: 'é"\\' } });
  assert.deepEqual((await db.query('SELECT 1 AS one WHERE false', [], { name: 'nothing' })).rows, []);
});

test('a named statement reports constraint errors with their code, and the store stays usable', async () => {
  const insert = 'INSERT INTO p (id) VALUES ($1)';
  await db.query(insert, ['dup'], { name: 'insert_id' });
  await assert.rejects(db.query(insert, ['dup'], { name: 'insert_id' }), (error: { code?: string; constraint?: string }) => {
    assert.equal(error.code, '23505');
    assert.equal(error.constraint, 'p_pkey');
    return true;
  });
  await db.transaction(async (tx) => {
    await tx.query(insert, ['in-tx'], { name: 'insert_id' });
  });
  assert.equal((await db.query<{ n: number }>('SELECT count(*) AS n FROM p WHERE id IN ($1, $2)', ['dup', 'in-tx'])).rows[0]!.n, 2);
});

test('statements sent while a transaction runs wait for it, so they never join it', async () => {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const transaction = db
    .transaction(async (tx) => {
      await tx.query('INSERT INTO p (id) VALUES ($1)', ['rolled-back']);
      await gate;
      throw new Error('roll back');
    })
    .catch((error: Error) => error.message);
  await new Promise((resolve) => setTimeout(resolve, 10));
  const outside = db.query('INSERT INTO p (id) VALUES ($1)', ['outside'], { name: 'insert_outside' });
  release();
  assert.equal(await transaction, 'roll back');
  await outside;
  const { rows } = await db.query<{ id: string }>("SELECT id FROM p WHERE id IN ('rolled-back', 'outside')");
  assert.deepEqual(rows.map((r) => r.id), ['outside']);
});

test('statements keep the order they were issued in, also when some had to wait for a transaction', async () => {
  await db.exec('CREATE TABLE ordered (seq serial PRIMARY KEY, label text NOT NULL)');
  const transaction = db.transaction((tx) => tx.query('SELECT pg_sleep(0.05)'));
  const first = db.query('INSERT INTO ordered (label) VALUES ($1)', ['first']);
  await transaction;
  const second = db.query('INSERT INTO ordered (label) VALUES ($1)', ['second'], { name: 'insert_ordered' });
  await Promise.all([first, second]);
  const { rows } = await db.query<{ label: string }>('SELECT label FROM ordered ORDER BY seq');
  assert.deepEqual(rows.map((r) => r.label), ['first', 'second']);
});

test('named statements: booleans read as text the way pg sends them, counts of SELECTs, one SQL per name, re-parsed after a schema change', async () => {
  const { rows } = await db.query<{ t: string; j: unknown; a: string[] }>('SELECT $1::text AS t, $2::jsonb AS j, $3::text[] AS a', [true, false, [true, false]], { name: 'booleans' });
  assert.deepEqual(rows, [{ t: 'true', j: false, a: ['true', 'false'] }]);
  const counted = await db.query('SELECT g FROM generate_series(1, 3) AS g', [], { name: 'three_rows' });
  assert.equal(counted.rowCount, 3);
  await assert.rejects(db.query('SELECT 4 AS g', [], { name: 'three_rows' }), /unique/);

  await db.exec('CREATE TABLE reshaped (id int)');
  await db.query('INSERT INTO reshaped VALUES (1)');
  assert.deepEqual((await db.query('SELECT * FROM reshaped', [], { name: 'select_reshaped' })).rows, [{ id: 1 }]);
  await db.exec('ALTER TABLE reshaped ADD COLUMN extra text');
  assert.deepEqual((await db.query('SELECT * FROM reshaped', [], { name: 'select_reshaped' })).rows, [{ id: 1, extra: null }]);
});

test('after close, statements and transactions fail at once instead of waiting forever, and closing again is harmless', async () => {
  const closed = await openDatabase({ databaseUrl: null, inMemory: true });
  assert.deepEqual((await closed.query('SELECT 1 AS one')).rows, [{ one: 1 }]);
  await closed.close();
  await assert.rejects(closed.query('SELECT 1'), /embedded store is closed/);
  await assert.rejects(closed.query('SELECT 1', [], { name: 'after_close' }), /embedded store is closed/);
  await assert.rejects(closed.transaction((tx) => tx.query('SELECT 1')), /embedded store is closed/);
  await closed.close();
});

test('rows this thread cannot read (a document nested thousands of levels deep) fail their statement instead of hanging it', { timeout: 20_000 }, async () => {
  await db.exec('CREATE TABLE deep (doc jsonb)');
  await db.query('INSERT INTO deep VALUES ($1::jsonb)', [`${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}`]);
  const read = db.query('SELECT doc FROM deep');
  const after = db.query<{ n: number }>('SELECT count(*)::int AS n FROM deep');
  await assert.rejects(read, /could not be read/);
  assert.deepEqual((await after).rows, [{ n: 1 }]);
});
