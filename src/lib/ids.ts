import { randomBytes } from 'node:crypto';

/**
 * Time-ordered identifiers: 12 hex digits of milliseconds, then 16 random hex
 * digits. New rows land at the end of indexes, and ids sort by creation.
 */
export function newId(prefix: string): string {
  return `${prefix}_${Date.now().toString(16).padStart(12, '0')}${randomBytes(8).toString('hex')}`;
}
