import { test } from 'node:test';
import assert from 'node:assert/strict';
import sharp from 'sharp';
import { computeImageHash, DEFAULT_HASH_THRESHOLD, hammingDistance, ImageHashError, normalizeImageHash } from './image-hash.ts';
import { pngDeclaring, scenePng, sceneSvg } from './test-images.ts';

const SEEDS = [3, 8, 11];

test('re-encoded, resized and slightly cropped copies stay within the default threshold', async () => {
  for (const seed of SEEDS) {
    const original = await scenePng(seed);
    const hash = await computeImageHash(original);
    assert.match(hash, /^[0-9a-f]{32}$/);
    const copies = {
      jpegQuality30: await sharp(original).jpeg({ quality: 30 }).toBuffer(),
      webp: await sharp(original).webp({ quality: 50 }).toBuffer(),
      resized: await sharp(original).resize(333).jpeg({ quality: 70 }).toBuffer(),
      // 4% off the left and top edges, then shrunk and re-encoded.
      cropped: await sharp(original).extract({ left: 32, top: 24, width: 768, height: 576 }).resize(500).jpeg({ quality: 60 }).toBuffer(),
    };
    for (const [name, bytes] of Object.entries(copies)) {
      const distance = hammingDistance(hash, await computeImageHash(bytes));
      assert.ok(distance <= DEFAULT_HASH_THRESHOLD, `seed ${seed}, ${name}: distance ${distance}`);
    }
  }
});

test('unrelated pictures are far apart', async () => {
  const hashes = await Promise.all([...SEEDS, 101, 202].map(async (seed) => computeImageHash(await scenePng(seed))));
  for (let i = 0; i < hashes.length; i++) {
    for (let j = i + 1; j < hashes.length; j++) {
      const distance = hammingDistance(hashes[i]!, hashes[j]!);
      assert.ok(distance > DEFAULT_HASH_THRESHOLD + 5, `pictures ${i} and ${j}: distance ${distance}`);
    }
  }
});

test('a mirrored picture is a different picture to a difference hash', async () => {
  const original = await scenePng(8);
  const distance = hammingDistance(await computeImageHash(original), await computeImageHash(await sharp(original).flop().toBuffer()));
  assert.ok(distance > DEFAULT_HASH_THRESHOLD, `distance ${distance}`);
});

test('hash text: 32 or 16 hex digits, case folded; a 16-digit hash compares the horizontal half on the same scale', () => {
  assert.equal(normalizeImageHash(' ABCDEF0123456789abcdef0123456789 '), 'abcdef0123456789abcdef0123456789');
  assert.equal(normalizeImageHash('0123456789abcdef'), '0123456789abcdef');
  assert.equal(normalizeImageHash('0123456789abcdeg'), null);
  assert.equal(normalizeImageHash('0123'), null);
  const full = 'ffffffffffffffff0000000000000000';
  assert.equal(hammingDistance(full, '0000000000000000ffffffffffffffff'), 128);
  assert.equal(hammingDistance(full, 'fffffffffffffff0'), 8);
  assert.equal(hammingDistance(full, full), 0);
});

test('undecodable bytes and decompression bombs are refused with a code', async () => {
  await assert.rejects(computeImageHash(Buffer.from('this is not an image')), (error: unknown) => error instanceof ImageHashError && error.code === 'not_an_image');
  await assert.rejects(
    computeImageHash(Buffer.from(sceneSvg(3))),
    (error: unknown) => error instanceof ImageHashError && error.code === 'not_an_image' && /SVG files are not accepted/.test(error.message),
  );
  for (const format of ['jpeg', 'webp', 'gif', 'tiff', 'avif'] as const) {
    assert.match(await computeImageHash(await sharp(await scenePng(3)).toFormat(format).toBuffer()), /^[0-9a-f]{32}$/, format);
  }
  const png = await scenePng(3);
  await assert.rejects(computeImageHash(png.subarray(0, png.length / 3)), (error: unknown) => error instanceof ImageHashError && error.code === 'not_an_image');
  // A PNG of under 100 bytes that declares a 20000×20000 canvas.
  const bomb = pngDeclaring(20_000, 20_000);
  await assert.rejects(computeImageHash(bomb, { maxPixels: 10_000_000 }), (error: unknown) => error instanceof ImageHashError && error.code === 'too_many_pixels');
});

