// Plain JavaScript so the worker starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { fsyncSync } from 'node:fs';
import { PGlite, parse as pgliteParse, protocol } from '@electric-sql/pglite';
import { NodeFS } from '@electric-sql/pglite/nodefs';

/*
 * Runs the embedded PGlite store on its own thread, so the database's work
 * (parsing, executing, writing WAL) uses the second core instead of competing
 * with HTTP handling and policies on the main thread. Messages run strictly in
 * arrival order; the main thread's lock keeps each transaction whole.
 */

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const toNumber = (value) => Number(value);

/*
 * PGlite starts PostgreSQL with fsync off (-F), and the Node file system under it has no fsync
 * at all: a COMMIT reached the operating system's page cache only, so an OS crash or a power cut
 * could lose writes that had been acknowledged. A store on disk therefore runs with fsync on and
 * wal_sync_method=fsync, the one sync call Emscripten hands to the file system, and the file
 * system's fsync flushes the real file. A failed flush reaches PostgreSQL as the fsync's error
 * (an errno value), not swallowed.
 */
/** Files flushed so far; a test reads it (message kind 'stats') to see that commits really reach the disk. */
let fileSyncs = 0;
class DurableNodeFS extends NodeFS {
  async init(pg, options) {
    const setup = await super.init(pg, options);
    const preRun = setup.emscriptenOpts.preRun ?? [];
    setup.emscriptenOpts.preRun = [
      ...preRun,
      (module) => {
        const nodefs = module.NODEFS;
        nodefs.stream_ops.fsync = (stream) => {
          nodefs.tryFSOperation(() => fsyncSync(stream.nfd));
          fileSyncs++;
          return 0;
        };
      },
    ];
    return setup;
  }
}

const parsers = { [INT8_OID]: toNumber, [NUMERIC_OID]: toNumber };
const db = workerData.dataDir
  ? await PGlite.create({
      fs: new DurableNodeFS(workerData.dataDir),
      startParams: [...PGlite.defaultStartParams.filter((param) => param !== '-F'), '-c', 'wal_sync_method=fsync'],
      parsers,
    })
  : await PGlite.create({ parsers });
parentPort.postMessage({ ready: true });

let chain = Promise.resolve();
parentPort.on('message', (request) => {
  chain = chain.then(() => handle(request));
});

async function handle(request) {
  try {
    if (request.kind === 'query') {
      const result = request.name && textParams(request.params) ? await runPrepared(request.name, request.sql, request.params) : await db.query(request.sql, request.params);
      // affectedRows counts inserted, updated and deleted rows; a SELECT's count is its rows, as with pg.
      parentPort.postMessage({ id: request.id, rows: result.rows, rowCount: result.affectedRows || result.rows.length });
    } else if (request.kind === 'stats') {
      parentPort.postMessage({ id: request.id, rows: [{ fileSyncs }], rowCount: 1 });
    } else if (request.kind === 'exec') {
      await db.exec(request.sql);
      parentPort.postMessage({ id: request.id, rows: [], rowCount: 0 });
    } else {
      await db.close();
      parentPort.postMessage({ id: request.id, rows: [], rowCount: 0 });
    }
  } catch (error) {
    parentPort.postMessage({
      id: request.id,
      error: { message: error?.message ?? String(error), code: error?.code, detail: error?.detail, constraint: error?.constraint },
    });
  }
}

/*
 * Named (hot) statements skip PGlite's general query path, which parses and
 * plans the SQL again and takes five calls into the database for every
 * execution, and which measures each parameter's UTF-8 length in a JavaScript
 * loop. Here a statement is parsed once per name; each execution is one call
 * carrying Bind, Describe, Execute and Sync, with parameters encoded natively.
 */
/** Statement name → its SQL: a name stands for one statement, as with pg. */
const prepared = new Map();
const SYNC = Buffer.from([0x53, 0, 0, 0, 4]);
const DESCRIBE_PORTAL = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);
const EXECUTE_ALL = Buffer.from([0x45, 0, 0, 0, 9, 0, 0, 0, 0, 0]);

const isScalar = (value) => {
  const type = typeof value;
  return value === null || value === undefined || type === 'string' || type === 'number' || type === 'boolean' || type === 'bigint';
};

/**
 * Only values whose text form is unambiguous take the fast path (scalars, and
 * flat arrays of them); anything else goes through PGlite's serializers.
 */
function textParams(params) {
  if (!params) return true;
  for (const value of params) if (!isScalar(value) && !(Array.isArray(value) && value.every(isScalar))) return false;
  return true;
}

// 'true' and 'false' are what PGlite's own path and pg send, right for text and JSON parameters as well as boolean ones.
const scalarText = (value) => String(value);
const ARRAY_SPECIAL = /["\\]/g;
/** PostgreSQL's array literal: every element quoted, so commas, braces and spaces need no care. */
const arrayText = (values) =>
  `{${values.map((v) => (v === null || v === undefined ? 'NULL' : `"${scalarText(v).replace(ARRAY_SPECIAL, '\\$&')}"`)).join(',')}}`;

async function runPrepared(name, sql, params = [], retried = false) {
  const known = prepared.get(name);
  if (known === undefined) {
    await db.execProtocol(Buffer.concat([protocol.serialize.parse({ name, text: sql }), SYNC]));
    prepared.set(name, sql);
  } else if (known !== sql) {
    throw new Error(`Prepared statements must be unique: '${name}' was used for a different statement`);
  }
  try {
    const { messages } = await db.execProtocol(Buffer.concat([bindMessage(name, params), DESCRIBE_PORTAL, EXECUTE_ALL, SYNC]));
    // db.parsers holds PGlite's own (arrays included) merged with the ones given at creation.
    return pgliteParse.parseResults(messages, db.parsers)[0];
  } catch (error) {
    // A schema change since it was parsed ("cached plan must not change result type"): parse it again, once.
    if (error?.code !== '0A000' || retried) throw error;
    await db.execProtocol(Buffer.concat([protocol.serialize.close({ type: 'S', name }), SYNC]));
    prepared.delete(name);
    return runPrepared(name, sql, params, true);
  }
}

function bindMessage(name, params) {
  const values = params.map((value) =>
    value === null || value === undefined ? null : Buffer.from(Array.isArray(value) ? arrayText(value) : scalarText(value)),
  );
  const nameLength = Buffer.byteLength(name);
  // length, portal "" and statement name (both NUL-terminated), no format codes (all text), the values, no result format codes (all text)
  const length = 4 + 1 + nameLength + 1 + 2 + 2 + values.reduce((sum, v) => sum + 4 + (v ? v.length : 0), 0) + 2;
  const message = Buffer.allocUnsafe(1 + length);
  let at = message.writeUInt8(0x42, 0);
  at = message.writeInt32BE(length, at);
  at = message.writeUInt8(0, at);
  at += message.write(name, at);
  at = message.writeUInt8(0, at);
  at = message.writeInt16BE(0, at);
  at = message.writeInt16BE(values.length, at);
  for (const value of values) {
    if (value === null) {
      at = message.writeInt32BE(-1, at);
    } else {
      at = message.writeInt32BE(value.length, at);
      at += value.copy(message, at);
    }
  }
  message.writeInt16BE(0, at);
  return message;
}
