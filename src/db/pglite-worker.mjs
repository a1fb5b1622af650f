// Plain JavaScript so the worker starts without a TypeScript loader.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

/*
 * Runs the embedded PGlite store on its own thread, so the database's work
 * (parsing, executing, writing WAL) uses the second core instead of competing
 * with HTTP handling and policies on the main thread. Messages run strictly in
 * arrival order; the main thread's lock keeps each transaction whole.
 */

const INT8_OID = 20;
const NUMERIC_OID = 1700;
const toNumber = (value) => Number(value);

const db = await PGlite.create(workerData.dataDir ?? undefined, {
  parsers: { [INT8_OID]: toNumber, [NUMERIC_OID]: toNumber },
});
parentPort.postMessage({ ready: true });

let chain = Promise.resolve();
parentPort.on('message', (request) => {
  chain = chain.then(() => handle(request));
});

async function handle(request) {
  try {
    if (request.kind === 'query') {
      const result = await db.query(request.sql, request.params);
      parentPort.postMessage({ id: request.id, rows: result.rows, rowCount: result.affectedRows ?? result.rows.length });
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
