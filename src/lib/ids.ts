import { randomFillSync } from 'node:crypto';

// Random bytes are drawn from the OS in blocks: one syscall per 512 ids instead of one per id.
const POOL_SIZE = 4096;
const ID_RANDOM_BYTES = 8;
const pool = Buffer.alloc(POOL_SIZE);
let offset = POOL_SIZE;

/**
 * Time-ordered identifiers: 12 hex digits of milliseconds, then 16 random hex
 * digits. New rows land at the end of indexes, and ids sort by creation.
 */
export function newId(prefix: string): string {
  if (offset + ID_RANDOM_BYTES > POOL_SIZE) {
    randomFillSync(pool);
    offset = 0;
  }
  const random = pool.toString('hex', offset, offset + ID_RANDOM_BYTES);
  offset += ID_RANDOM_BYTES;
  return `${prefix}_${timeHex(Date.now())}${random}`;
}

// A busy server makes many ids per millisecond: the time's hex digits are written once for each.
let lastMs = -1;
let lastHex = '';
function timeHex(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    lastHex = ms.toString(16).padStart(12, '0');
  }
  return lastHex;
}
