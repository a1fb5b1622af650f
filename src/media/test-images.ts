/**
 * Generated test pictures (SVG rendered by sharp): coloured shapes over a gradient and a line of
 * text, laid out by a seeded generator so each seed is a different, reproducible picture.
 * Used by unit and API tests; nothing here runs in production.
 */
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';

export function sceneSvg(seed: number, width = 800, height = 600, caption = 'WIN A PRIZE'): string {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
  const colour = () => `rgb(${Math.floor(random() * 255)},${Math.floor(random() * 255)},${Math.floor(random() * 255)})`;
  let shapes = '';
  for (let i = 0; i < 14; i++) {
    if (i % 2) shapes += `<circle cx="${random() * width}" cy="${random() * height}" r="${30 + random() * 150}" fill="${colour()}"/>`;
    else shapes += `<rect x="${random() * width}" y="${random() * height}" width="${50 + random() * 250}" height="${50 + random() * 200}" fill="${colour()}"/>`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${colour()}"/><stop offset="1" stop-color="${colour()}"/></linearGradient></defs>` +
    `<rect width="100%" height="100%" fill="url(#g)"/>${shapes}` +
    `<text x="40" y="${height - 60}" font-family="sans-serif" font-size="64" fill="white">${caption}</text></svg>`
  );
}

export async function scenePng(seed: number, width = 800, height = 600): Promise<Buffer> {
  return sharp(Buffer.from(sceneSvg(seed, width, height))).png().toBuffer();
}

export const dataUrlOf = (bytes: Buffer, type = 'image/png') => `data:${type};base64,${bytes.toString('base64')}`;

/** A PNG of under 100 bytes that declares a `width` × `height` canvas (a decompression bomb). */
export function pngDeclaring(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.alloc(1024))), chunk('IEND', Buffer.alloc(0))]);
}
