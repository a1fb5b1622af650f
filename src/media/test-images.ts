/**
 * Generated test pictures (SVG rendered by sharp): coloured shapes over a gradient and a line of
 * text, laid out by a seeded generator so each seed is a different, reproducible picture.
 * Used by unit and API tests; nothing here runs in production.
 */
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
