/**
 * The type of a body from its first bytes. Headers are the sender's claim; these signatures are
 * what decoders will actually see, so the field's kind is checked against them.
 */
export function sniffMime(bytes: Uint8Array): string {
  const b = bytes;
  const at = (offset: number, ...values: number[]) => values.every((v, i) => b[offset + i] === v);
  const ascii = (offset: number, text: string) => at(offset, ...[...text].map((c) => c.charCodeAt(0)));
  if (b.length >= 8 && at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (b.length >= 3 && at(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (b.length >= 6 && (ascii(0, 'GIF87a') || ascii(0, 'GIF89a'))) return 'image/gif';
  if (b.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  if (b.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'WAVE')) return 'audio/wav';
  if (b.length >= 12 && ascii(0, 'RIFF') && ascii(8, 'AVI ')) return 'video/x-msvideo';
  if (b.length >= 4 && (at(0, 0x49, 0x49, 0x2a, 0x00) || at(0, 0x4d, 0x4d, 0x00, 0x2a))) return 'image/tiff';
  if (b.length >= 2 && ascii(0, 'BM')) return 'image/bmp';
  if (b.length >= 12 && ascii(4, 'ftyp')) {
    const brand = String.fromCharCode(...b.subarray(8, 12));
    if (brand === 'avif' || brand === 'avis') return 'image/avif';
    if (brand === 'heic' || brand === 'heix' || brand === 'mif1' || brand === 'msf1') return 'image/heif';
    if (brand === 'qt  ') return 'video/quicktime';
    if (brand.startsWith('M4A') || brand === 'M4B ') return 'audio/mp4';
    return 'video/mp4';
  }
  if (b.length >= 4 && at(0, 0x1a, 0x45, 0xdf, 0xa3)) return 'video/webm';
  if (b.length >= 4 && ascii(0, 'OggS')) return 'audio/ogg';
  if (b.length >= 4 && ascii(0, 'fLaC')) return 'audio/flac';
  if (b.length >= 3 && ascii(0, 'ID3')) return 'audio/mpeg';
  if (b.length >= 2 && b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) return 'audio/mpeg';
  if (b.length >= 4 && at(0, 0x00, 0x00, 0x01, 0xba)) return 'video/mpeg';
  if (b.length >= 1 && b[0] === 0x47 && b.length >= 189 && b[188] === 0x47) return 'video/mp2t';
  const head = new TextDecoder('utf-8', { fatal: false }).decode(b.subarray(0, 1024)).replace(/^\uFEFF/, '').trimStart().toLowerCase();
  if (head.startsWith('<svg') || (head.startsWith('<?xml') && head.includes('<svg'))) return 'image/svg+xml';
  if (head.startsWith('<!doctype html') || head.startsWith('<html') || /^<(head|body|meta|title|div|p|!--)[\s>]/.test(head)) return 'text/html';
  return 'application/octet-stream';
}

export const kindOfMime = (mime: string): 'image' | 'video' | 'audio' | 'page' | 'unknown' => {
  if (mime.startsWith('image/')) return 'image';
  if (mime.startsWith('video/')) return 'video';
  if (mime.startsWith('audio/')) return 'audio';
  if (mime === 'text/html') return 'page';
  return 'unknown';
};
