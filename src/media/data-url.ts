/**
 * `data:` URLs (RFC 2397) as clients without a public URL send media inline. Base64 payloads
 * and percent-encoded text payloads are both read; the declared type is reported but never
 * trusted: the bytes are sniffed by whoever decodes them.
 */

export interface DataUrl {
  /** The media type as declared, lowercased ("" when absent). */
  declaredType: string;
  bytes: Buffer;
}

export class DataUrlError extends Error {
  constructor(
    readonly code: 'bad_data_url' | 'too_large',
    message: string,
  ) {
    super(message);
    this.name = 'DataUrlError';
  }
}

const BASE64_BODY = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** Decodes a data: URL, refusing one whose payload is larger than `maxBytes` before decoding it. */
export function parseDataUrl(url: string, maxBytes: number): DataUrl {
  if (!/^data:/i.test(url)) throw new DataUrlError('bad_data_url', 'Not a data: URL');
  const comma = url.indexOf(',');
  if (comma < 0) throw new DataUrlError('bad_data_url', 'A data: URL needs a comma before its payload');
  const header = url.slice(5, comma).trim();
  const parameters = header.split(';').map((part) => part.trim());
  const isBase64 = parameters.length > 1 && parameters[parameters.length - 1]!.toLowerCase() === 'base64';
  const declaredType = (parameters[0] ?? '').toLowerCase();
  const payload = url.slice(comma + 1);
  if (isBase64) {
    const compact = payload.replace(/\s+/g, '');
    if (!BASE64_BODY.test(compact)) throw new DataUrlError('bad_data_url', 'The data: URL payload is not valid base64');
    if (Math.floor((compact.length * 3) / 4) > maxBytes + 2) {
      throw new DataUrlError('too_large', `The data: URL holds more than ${maxBytes} bytes`);
    }
    const bytes = Buffer.from(compact, compact.includes('-') || compact.includes('_') ? 'base64url' : 'base64');
    if (bytes.length > maxBytes) throw new DataUrlError('too_large', `The data: URL holds more than ${maxBytes} bytes`);
    if (bytes.length === 0) throw new DataUrlError('bad_data_url', 'The data: URL is empty');
    return { declaredType, bytes };
  }
  let bytes: Buffer;
  try {
    bytes = Buffer.from(decodeURIComponent(payload), 'utf8');
  } catch {
    throw new DataUrlError('bad_data_url', 'The data: URL payload is not valid percent-encoding');
  }
  if (bytes.length > maxBytes) throw new DataUrlError('too_large', `The data: URL holds more than ${maxBytes} bytes`);
  if (bytes.length === 0) throw new DataUrlError('bad_data_url', 'The data: URL is empty');
  return { declaredType, bytes };
}
