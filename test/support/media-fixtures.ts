import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import sharp from 'sharp';

const escapeXml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A PNG with these lines of dark text on a light background, rendered from SVG by sharp (librsvg, DejaVu Sans). */
export async function textImage(lines: readonly string[], options: { width?: number; fontSize?: number; background?: string; format?: 'png' | 'jpeg' } = {}): Promise<Buffer> {
  const fontSize = options.fontSize ?? 40;
  const width = options.width ?? 900;
  const lineHeight = Math.round(fontSize * 1.6);
  const height = lineHeight * lines.length + fontSize;
  const text = lines
    .map((line, i) => `<text x="30" y="${fontSize + 10 + i * lineHeight}" font-size="${fontSize}" font-family="DejaVu Sans" fill="#111">${escapeXml(line)}</text>`)
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><rect width="100%" height="100%" fill="${options.background ?? '#fafafa'}"/>${text}</svg>`;
  const image = sharp(Buffer.from(svg));
  return options.format === 'jpeg' ? image.jpeg({ quality: 85 }).toBuffer() : image.png().toBuffer();
}

/** A plain picture without text: a gradient with a few shapes. */
export async function plainImage(width = 640, height = 480): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><defs><linearGradient id="g"><stop offset="0" stop-color="#3a7bd5"/><stop offset="1" stop-color="#9ad0ec"/></linearGradient></defs><rect width="100%" height="100%" fill="url(#g)"/><circle cx="${width / 3}" cy="${height / 2}" r="${height / 5}" fill="#f4d35e"/><rect x="${width / 2}" y="${height / 2}" width="${width / 4}" height="${height / 3}" fill="#2d6a4f"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

export const dataUrl = (bytes: Buffer, mime = 'image/png') => `data:${mime};base64,${bytes.toString('base64')}`;

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (buffer: Buffer) => {
  let c = 0xffffffff;
  for (const byte of buffer) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
const chunk = (type: string, data: Buffer) => {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
};

/**
 * A decompression bomb: a valid PNG of a few hundred bytes that declares a `side` × `side` canvas
 * (one compressed row of zeros, the rest missing). Decoding it would need side² × 3 bytes.
 */
export function pngBomb(side = 100_000): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  const row = Buffer.alloc(1 + side * 3);
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', zlib.deflateSync(row)), chunk('IEND', Buffer.alloc(0))]);
}

export interface Route {
  status?: number;
  headers?: Record<string, string>;
  body?: Buffer | string;
  /** Wait this long before answering (a slow server). */
  delayMs?: number;
  /** Send the headers, then stall before the body. */
  stallBodyMs?: number;
}

/** A real HTTP server on 127.0.0.1 serving fixed routes. */
export async function startFixtureServer(routes: Record<string, Route>): Promise<{ url: string; port: number; close(): Promise<void>; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    hits.push(path);
    const route = routes[path];
    if (!route) {
      response.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const answer = () => {
      response.writeHead(route.status ?? 200, route.headers ?? {});
      if (route.stallBodyMs) {
        setTimeout(() => response.end(route.body ?? ''), route.stallBodyMs);
        return;
      }
      response.end(route.body ?? '');
    };
    if (route.delayMs) setTimeout(answer, route.delayMs);
    else answer();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
