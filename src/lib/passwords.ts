import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard): N = 2^15, r = 8, p = 1 uses 32 MiB per hash and
 * takes tens of milliseconds, a 16-byte random salt per password, a 32-byte key. The parameters
 * are stored with each hash, so they can be raised later without invalidating old hashes.
 */

const LOG2_N = 15;
const BLOCK_SIZE = 8;
const PARALLELISM = 1;
const KEY_LENGTH = 32;
const SALT_BYTES = 16;

export const MIN_PASSWORD_LENGTH = 12;
export const MAX_PASSWORD_LENGTH = 200;

function derive(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const options: ScryptOptions = { N: 2 ** log2N, r, p, maxmem: 2 * 128 * 2 ** log2N * r + 1_048_576 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(password, salt, LOG2_N, BLOCK_SIZE, PARALLELISM);
  return `scrypt$${LOG2_N}$${BLOCK_SIZE}$${PARALLELISM}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Constant-time comparison of the derived key; false for a malformed stored hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$');
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
  const [log2N, r, p] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (!(log2N >= 10 && log2N <= 20 && r >= 1 && r <= 32 && p >= 1 && p <= 16)) return false;
  const expected = Buffer.from(parts[5]!, 'base64');
  if (expected.length !== KEY_LENGTH) return false;
  const actual = await derive(password, Buffer.from(parts[4]!, 'base64'), log2N, r, p);
  return timingSafeEqual(actual, expected);
}

/** A hash no password matches, verified against for unknown accounts so that they take as long as known ones. */
let decoy: Promise<string> | null = null;
export function decoyHash(): Promise<string> {
  decoy ??= hashPassword(randomBytes(24).toString('base64url'));
  return decoy;
}

/** A one-time password: 18 random bytes in base64url (24 characters, 144 bits). */
export const generatePassword = () => randomBytes(18).toString('base64url');

/** Why a password is refused, or null. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `A password needs at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `A password has at most ${MAX_PASSWORD_LENGTH} characters`;
  if (password.trim() === '') return 'A password cannot be only spaces';
  return null;
}
