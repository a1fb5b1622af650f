import ipaddr from 'ipaddr.js';
import type { MediaConfig } from '../config.ts';
import { createOutboundFetch, isPublicAddress, OutboundError, type OutboundDependencies } from '../net/outbound.ts';
import { MediaError, type FetchedMedia, type MediaFetcher, type MediaKind } from './types.ts';
import { sniffMime } from './sniff.ts';

const DATA_URL = /^data:([a-z]+\/[-+.a-z0-9]+)?((?:;[-a-z0-9]+=[-a-z0-9.]+)*);base64,/i;

/** Loopback addresses, in every form the URL parser and DNS can hand over (127.0.0.0/8, ::1, ::ffff:127.x). */
function isLoopback(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range() === 'loopback';
}

export interface MediaFetcherOptions extends Pick<MediaConfig, 'maxBytes' | 'fetchTimeoutMs' | 'allowLoopbackForTests'> {
}

/**
 * The one fetcher of every media kind: the outbound client of src/net/outbound.ts (every resolved
 * address and IP literal vetted, redirects followed by hand and re-vetted, byte and time caps), with
 * the caps of the field's kind, `data:` URLs decoded in place, and the type sniffed from the bytes.
 * Only public addresses over https; the test setting adds loopback (and plain http), nothing else.
 */
export function createMediaFetcher(options: MediaFetcherOptions, testDependencies: OutboundDependencies = {}): MediaFetcher {
  const loopback = options.allowLoopbackForTests;
  const outbound = createOutboundFetch({
    isPublicAddress: loopback ? (address) => isPublicAddress(address) || isLoopback(address) : isPublicAddress,
    allowInsecureHttp: loopback,
    ...testDependencies,
  });

  return {
    async fetch(url: string, kind: MediaKind, signal?: AbortSignal): Promise<FetchedMedia> {
      const maxBytes = options.maxBytes[kind];
      if (url.slice(0, 5).toLowerCase() === 'data:') return fromDataUrl(url, maxBytes);
      try {
        const response = await outbound(url, {
          timeoutMs: options.fetchTimeoutMs[kind],
          maxBytes,
          headers: { accept: ACCEPT[kind], 'user-agent': 'open-moderation-media/1' },
          ...(signal ? { signal } : {}),
        });
        if (response.status < 200 || response.status >= 300) {
          throw new MediaError('http_error', `The server answered HTTP ${response.status} for ${describe(url)}`);
        }
        return { bytes: response.body, mime: sniffMime(response.body), finalUrl: response.url };
      } catch (error) {
        throw toMediaError(error, url, maxBytes, options.fetchTimeoutMs[kind]);
      }
    },
  };
}

const ACCEPT: Record<MediaKind, string> = {
  image: 'image/*',
  video: 'video/*',
  audio: 'audio/*',
  url: 'text/html,application/xhtml+xml',
};

function fromDataUrl(url: string, maxBytes: number): FetchedMedia {
  const header = DATA_URL.exec(url.slice(0, 300));
  if (!header) throw new MediaError('bad_url', 'A data: URL must be base64 encoded: data:<type>;base64,<data>');
  const payload = url.slice(header[0].length);
  // Base64 grows the bytes by 4/3: refuse before decoding what could not fit anyway.
  if (Math.floor((payload.length * 3) / 4) > maxBytes + 3) throw new MediaError('too_large', `The data: URL holds more than the ${maxBytes}-byte limit`);
  if (!/^[A-Za-z0-9+/=\s_-]*$/.test(payload)) throw new MediaError('bad_url', 'The data: URL is not valid base64');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > maxBytes) throw new MediaError('too_large', `The data: URL holds ${bytes.length} bytes, over the ${maxBytes}-byte limit`);
  return { bytes, mime: sniffMime(bytes), finalUrl: 'data:' };
}

/** The host only: full URLs may carry tokens in their query. */
function describe(url: string): string {
  try {
    return new URL(url).host || 'the URL';
  } catch {
    return 'the URL';
  }
}

function toMediaError(error: unknown, url: string, maxBytes: number, timeoutMs: number): MediaError {
  if (error instanceof MediaError) return error;
  if (!(error instanceof OutboundError)) return new MediaError('unreachable', `Could not fetch ${describe(url)}`, { cause: error });
  switch (error.code) {
    case 'bad_url':
    case 'bad_scheme':
      return new MediaError('bad_url', error.message, { cause: error });
    case 'blocked_address':
      return new MediaError('blocked_address', error.message, { cause: error });
    case 'timeout':
      return new MediaError('timed_out', `No complete answer from ${describe(url)} within ${timeoutMs} ms`, { cause: error });
    case 'too_large':
      return new MediaError('too_large', `The file at ${describe(url)} is over the ${maxBytes}-byte limit`, { cause: error });
    case 'http_error':
      return new MediaError('http_error', error.message, { cause: error });
    default:
      return new MediaError('unreachable', `${describe(url)} is unreachable: ${error.message}`, { cause: error });
  }
}
