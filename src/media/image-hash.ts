/**
 * Perceptual hashes for known-bad image lists. An image hash is 128 bits written as 32 hex
 * digits: a 64-bit horizontal difference hash (dHash: does brightness rise from each pixel to its
 * right neighbour on a 9×8 grayscale thumbnail?) followed by a 64-bit vertical one (each pixel to
 * the one below, on 8×9). Re-encoding and resizing barely move either; a crop of a few percent
 * shifts the grid slightly and moves a few bits. Using both directions halves the chance that two
 * unrelated pictures with similar left-to-right light fall within the threshold.
 *
 * Decoding runs in sharp (libvips on libuv's thread pool), not on the event loop.
 */
import sharp, { type Sharp } from 'sharp';

export const IMAGE_HASH_HEX_LENGTH = 32;
export const IMAGE_HASH_BITS = 128;
/** A hash of only the horizontal half (16 hex digits), as 64-bit dHash tools write it. */
export const HALF_HASH_HEX_LENGTH = 16;

/**
 * Default Hamming distance (over 128 bits) at or below which two images count as the same
 * picture. Measured on 30 generated pictures (shapes, gradient and a caption, as in
 * src/media/test-images.ts): JPEG quality 30 and resizing move 0–6 bits, a crop of 3–5% from one
 * corner 8–28 (centred 3–14), while unrelated pictures were 41 bits apart or more (median 61).
 */
export const DEFAULT_HASH_THRESHOLD = 30;

export interface ImageHashOptions {
  /** Images declaring more pixels than this are refused before decoding (decompression bombs). */
  maxPixels?: number;
}

/** Why an image could not be hashed; `code` is stable for callers and error entries. */
export class ImageHashError extends Error {
  constructor(
    readonly code: 'not_an_image' | 'too_many_pixels',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ImageHashError';
  }
}

const DEFAULT_MAX_PIXELS = 50_000_000;
// The decoded image is first reduced to this square so both hashes are cut from one decode.
const WORKING_SIZE = 64;

function bitsToHex(bits: number[]): string {
  let hex = '';
  for (let i = 0; i < bits.length; i += 4) hex += ((bits[i]! << 3) | (bits[i + 1]! << 2) | (bits[i + 2]! << 1) | bits[i + 3]!).toString(16);
  return hex;
}

async function thumbnail(working: Buffer, width: number, height: number): Promise<Buffer> {
  return sharp(working, { raw: { width: WORKING_SIZE, height: WORKING_SIZE, channels: 1 } })
    .resize(width, height, { fit: 'fill' })
    // A one-band raw input comes out as three bands unless told otherwise.
    .extractChannel(0)
    .raw()
    .toBuffer();
}

const RASTER_FORMATS = new Set<string | undefined>(['jpeg', 'png', 'webp', 'gif', 'heif', 'tiff']);

/** The 32-hex-digit hash of an encoded image (PNG, JPEG, WebP, GIF, AVIF/HEIF, TIFF). */
export async function computeImageHash(bytes: Uint8Array, options: ImageHashOptions = {}): Promise<string> {
  const maxPixels = options.maxPixels ?? DEFAULT_MAX_PIXELS;
  let working: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: maxPixels, failOn: 'error', pages: 1 });
    // Raster formats only, as the media stage accepts: an SVG is a document that is rendered, not a picture.
    const { format } = await image.metadata();
    if (!RASTER_FORMATS.has(format)) throw new ImageHashError('not_an_image', `${String(format ?? 'This').toUpperCase()} files are not accepted: send a PNG, JPEG, WebP, GIF, AVIF or TIFF image`);
    working = await toWorkingSquare(image.rotate());
  } catch (error) {
    if (error instanceof ImageHashError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    if (/pixel limit/i.test(message)) {
      throw new ImageHashError('too_many_pixels', `The image declares more than ${maxPixels} pixels`, { cause: error });
    }
    throw new ImageHashError('not_an_image', `Not a decodable image (${message.split('\n')[0]})`, { cause: error });
  }
  return hashOfWorkingSquare(working);
}

/** Raw interleaved 8-bit pixels, as the media stage's decoder hands them on (src/media/types.ts `Raster`). */
export interface RawPixels {
  data: Uint8Array;
  width: number;
  height: number;
  channels: 1 | 2 | 3 | 4;
}

/**
 * The same hash from pixels already decoded (orientation applied): the pipeline hashes the
 * preview it decoded once instead of decoding the original bytes again. A preview fitted inside
 * 1024 px hashes like its original: the hash works on a 64×64 reduction either way.
 */
export async function computeImageHashFromPixels(pixels: RawPixels): Promise<string> {
  const { data, width, height, channels } = pixels;
  if (data.length !== width * height * channels) throw new ImageHashError('not_an_image', `Raw pixels: ${data.length} bytes for ${width}×${height}×${channels}`);
  const working = await toWorkingSquare(sharp(data, { raw: { width, height, channels } }));
  return hashOfWorkingSquare(working);
}

function toWorkingSquare(image: Sharp): Promise<Buffer> {
  return (
    image
      // Transparent pixels take white, as most pages show them, so a PNG and its flattened JPEG hash alike.
      .flatten({ background: '#ffffff' })
      .grayscale()
      .resize(WORKING_SIZE, WORKING_SIZE, { fit: 'fill' })
      .extractChannel(0)
      .raw()
      .toBuffer()
  );
}

async function hashOfWorkingSquare(working: Buffer): Promise<string> {
  const [wide, tall] = await Promise.all([thumbnail(working, 9, 8), thumbnail(working, 8, 9)]);
  const bits: number[] = [];
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(wide[y * 9 + x + 1]! > wide[y * 9 + x]! ? 1 : 0);
  for (let y = 0; y < 8; y++) for (let x = 0; x < 8; x++) bits.push(tall[(y + 1) * 8 + x]! > tall[y * 8 + x]! ? 1 : 0);
  return bitsToHex(bits);
}

const HEX = /^[0-9a-f]+$/;

/** Lowercases and checks a hash written by hand or another tool: 32 hex digits, or 16 for the horizontal half. */
export function normalizeImageHash(raw: string): string | null {
  const hash = raw.trim().toLowerCase();
  if ((hash.length !== IMAGE_HASH_HEX_LENGTH && hash.length !== HALF_HASH_HEX_LENGTH) || !HEX.test(hash)) return null;
  return hash;
}

function popcount32(value: number): number {
  let v = value - ((value >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** A hash as four 32-bit words; a 16-digit half hash fills the first two. */
export function hashWords(hash: string): Uint32Array {
  const words = new Uint32Array(4);
  for (let i = 0; i < hash.length / 8; i++) words[i] = Number.parseInt(hash.slice(i * 8, i * 8 + 8), 16) >>> 0;
  return words;
}

/**
 * Bits that differ between two hashes, on the 128-bit scale. When either is a 64-bit half
 * hash only the horizontal halves are compared and the count doubled, so one threshold serves both.
 */
export function hammingDistance(a: string, b: string): number {
  const wa = hashWords(a);
  const wb = hashWords(b);
  const half = a.length === HALF_HASH_HEX_LENGTH || b.length === HALF_HASH_HEX_LENGTH;
  let distance = popcount32(wa[0]! ^ wb[0]!) + popcount32(wa[1]! ^ wb[1]!);
  if (half) return distance * 2;
  distance += popcount32(wa[2]! ^ wb[2]!) + popcount32(wa[3]! ^ wb[3]!);
  return distance;
}

/** The same distance from a probe to the entry whose four words start at `offset` (the matcher's inner loop). */
export function wordsDistance(probe: Uint32Array, probeHalf: boolean, entries: Uint32Array, offset: number, entryHalf: boolean): number {
  const horizontal = popcount32(probe[0]! ^ entries[offset]!) + popcount32(probe[1]! ^ entries[offset + 1]!);
  if (probeHalf || entryHalf) return horizontal * 2;
  return horizontal + popcount32(probe[2]! ^ entries[offset + 2]!) + popcount32(probe[3]! ^ entries[offset + 3]!);
}
