/**
 * SSRF-safe outbound HTTP for webhooks, images, custom-data calls and model
 * backends. The host is resolved here, every address is vetted, and the socket
 * connects to a vetted address (the request's `lookup` returns only those), so
 * a DNS answer that changes between check and connect cannot redirect the
 * request inside the network. Redirects are followed by hand and re-vetted.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import tls from 'node:tls';
import ipaddr from 'ipaddr.js';

export type OutboundErrorCode =
  | 'bad_url'
  | 'bad_scheme'
  | 'blocked_address'
  | 'dns_failure'
  | 'timeout'
  | 'aborted'
  | 'too_large'
  | 'too_many_redirects'
  | 'network_error'
  | 'http_error';

export class OutboundError extends Error {
  readonly code: OutboundErrorCode;
  readonly status: number | undefined;
  constructor(code: OutboundErrorCode, message: string, options: { cause?: unknown; status?: number } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'OutboundError';
    this.code = code;
    this.status = options.status;
  }
}

export interface OutboundInit {
  method?: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Total budget for DNS, connect, every redirect hop and the body. */
  timeoutMs: number;
  /** The response body is aborted once it exceeds this many bytes. */
  maxBytes: number;
  /** Development and tests: allow private/loopback targets and plain http. */
  allowPrivate?: boolean;
  /** Operator-configured endpoints (model backends): skip the address check, keep timeouts and caps. */
  trusted?: boolean;
  signal?: AbortSignal;
  /** Defaults to 5. */
  maxRedirects?: number;
  /** Extra PEM certificates trusted for https besides the system's (a private CA; tests). */
  ca?: string;
}

export interface OutboundResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The URL that answered, after redirects. */
  url: string;
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export interface OutboundDependencies {
  /** Name resolution; every returned address is vetted. */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
  /** Which addresses count as public. */
  isPublicAddress?: (address: string) => boolean;
  /** Tests only: allow plain http while keeping the address check. */
  allowInsecureHttp?: boolean;
}

/** Only globally routable unicast passes; every special range of ipaddr.js is refused. */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) parsed = v6.toIPv4Address();
    // IPv4-compatible addresses (::a.b.c.d, deprecated by RFC 4291) reach the embedded IPv4 address on
    // some stacks, yet ipaddr.js calls them unicast: the whole ::/96 is refused.
    else if (v6.parts.slice(0, 6).every((part) => part === 0)) return false;
  }
  return parsed.range() === 'unicast';
}

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  const answers = await dnsLookup(hostname, { all: true, verbatim: true });
  return answers.map((answer) => ({ address: answer.address, family: answer.family === 6 ? 6 : 4 }));
}

const SENSITIVE_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

function pinnedLookup(addresses: ResolvedAddress[]): LookupFunction {
  return ((_hostname: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options?.all) callback(null, addresses.map(({ address, family }) => ({ address, family })));
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  }) as unknown as LookupFunction;
}

export function createOutboundFetch(dependencies: OutboundDependencies = {}) {
  const resolve = dependencies.resolve ?? systemResolve;
  const isPublic = dependencies.isPublicAddress ?? isPublicAddress;

  async function vet(url: URL, init: OutboundInit): Promise<ResolvedAddress[]> {
    const insecureAllowed = init.allowPrivate === true || init.trusted === true || dependencies.allowInsecureHttp === true;
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && insecureAllowed)) {
      throw new OutboundError('bad_scheme', `Refusing ${url.protocol.replace(':', '')} URL: only https is allowed`);
    }
    if (url.username || url.password) throw new OutboundError('bad_url', 'URLs with credentials are not allowed');
    // The WHATWG parser already turned decimal, octal and hex IPv4 forms into dotted quads.
    const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    let addresses: ResolvedAddress[];
    if (ipaddr.isValid(hostname)) {
      addresses = [{ address: hostname, family: hostname.includes(':') ? 6 : 4 }];
    } else {
      try {
        addresses = await resolve(hostname);
      } catch (error) {
        throw new OutboundError('dns_failure', `Could not resolve ${hostname}`, { cause: error });
      }
      if (addresses.length === 0) throw new OutboundError('dns_failure', `No address for ${hostname}`);
    }
    if (init.trusted || init.allowPrivate) return addresses;
    const blocked = addresses.find(({ address }) => !isPublic(address));
    if (blocked) {
      throw new OutboundError('blocked_address', `Refusing to connect to ${hostname}: ${blocked.address} is not a public address`);
    }
    return addresses;
  }

  function requestOnce(
    url: URL,
    addresses: ResolvedAddress[],
    method: string,
    headers: Record<string, string>,
    body: string | Buffer | undefined,
    maxBytes: number,
    signal: AbortSignal,
    ca: string | undefined,
  ): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
    return new Promise((resolvePromise, reject) => {
      const transport = url.protocol === 'https:' ? https : http;
      const trust = ca !== undefined && url.protocol === 'https:' ? { ca: [...tls.rootCertificates, ca] } : {};
      const request = transport.request(url, { method, headers, lookup: pinnedLookup(addresses), signal, agent: false, ...trust });
      request.on('error', (error) => {
        if (signal.aborted) reject(signal.reason instanceof OutboundError ? signal.reason : new OutboundError('aborted', 'Request aborted', { cause: error }));
        else if (error instanceof OutboundError) reject(error);
        else reject(new OutboundError('network_error', `Request to ${url.host} failed: ${error.message}`, { cause: error }));
      });
      request.on('response', (response) => {
        const status = response.statusCode ?? 0;
        const isRedirect = status >= 300 && status < 400 && response.headers.location !== undefined;
        if (isRedirect) {
          response.resume();
          resolvePromise({ status, headers: response.headers, body: Buffer.alloc(0) });
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (Number.isFinite(declared) && declared > maxBytes) {
          request.destroy(new OutboundError('too_large', `Response of ${declared} bytes exceeds the ${maxBytes}-byte limit`));
          return;
        }
        const chunks: Buffer[] = [];
        let received = 0;
        let overLimit: OutboundError | null = null;
        response.on('data', (chunk: Buffer) => {
          if (overLimit) return;
          received += chunk.length;
          if (received > maxBytes) {
            overLimit = new OutboundError('too_large', `Response exceeds the ${maxBytes}-byte limit`);
            request.destroy(overLimit);
            return;
          }
          chunks.push(chunk);
        });
        // A body that arrived whole in one read may still end after the destroy: over the limit stays refused.
        response.on('end', () => (overLimit ? reject(overLimit) : resolvePromise({ status, headers: response.headers, body: Buffer.concat(chunks) })));
        response.on('error', (error) => request.destroy(error));
      });
      if (body !== undefined) request.end(body);
      else request.end();
    });
  }

  return async function outboundFetch(target: string | URL, init: OutboundInit): Promise<OutboundResponse> {
    let url: URL;
    try {
      url = new URL(target);
    } catch (error) {
      throw new OutboundError('bad_url', `Invalid URL: ${String(target)}`, { cause: error });
    }
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new OutboundError('timeout', `No complete response from ${url.host} within ${init.timeoutMs} ms`)),
      init.timeoutMs,
    );
    const onCallerAbort = () => controller.abort(new OutboundError('aborted', 'Request aborted by the caller'));
    if (init.signal?.aborted) onCallerAbort();
    init.signal?.addEventListener('abort', onCallerAbort, { once: true });
    const raceAbort = <T>(promise: Promise<T>): Promise<T> =>
      new Promise<T>((resolvePromise, reject) => {
        if (controller.signal.aborted) return reject(controller.signal.reason);
        const onAbort = () => reject(controller.signal.reason);
        controller.signal.addEventListener('abort', onAbort, { once: true });
        promise.then(resolvePromise, reject).finally(() => controller.signal.removeEventListener('abort', onAbort));
      });

    try {
      let method = (init.method ?? 'GET').toUpperCase();
      let body = init.body;
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
      const maxRedirects = init.maxRedirects ?? 5;
      for (let hop = 0; ; hop++) {
        const addresses = await raceAbort(vet(url, init));
        const response = await requestOnce(url, addresses, method, headers, body, init.maxBytes, controller.signal, init.ca);
        const location = response.headers.location;
        if (response.status < 300 || response.status >= 400 || location === undefined) {
          return { ...response, url: url.toString() };
        }
        if (hop >= maxRedirects) throw new OutboundError('too_many_redirects', `More than ${maxRedirects} redirects`);
        let next: URL;
        try {
          next = new URL(location, url);
        } catch (error) {
          throw new OutboundError('bad_url', `Invalid redirect location: ${location}`, { cause: error });
        }
        if (url.protocol === 'https:' && next.protocol === 'http:' && !init.allowPrivate && !init.trusted) {
          throw new OutboundError('bad_scheme', 'Refusing a redirect from https to http');
        }
        if (next.origin !== url.origin) for (const name of SENSITIVE_HEADERS) delete headers[name];
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
          method = 'GET';
          body = undefined;
          delete headers['content-type'];
          delete headers['content-length'];
        }
        url = next;
      }
    } finally {
      clearTimeout(timer);
      init.signal?.removeEventListener('abort', onCallerAbort);
    }
  };
}

export const outboundFetch = createOutboundFetch();

/** Throws `http_error` for a non-2xx answer, with the first bytes of the body for context. */
export function expectOk(response: OutboundResponse): OutboundResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const excerpt = response.body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
  throw new OutboundError('http_error', `HTTP ${response.status} from ${new URL(response.url).host}${excerpt ? `: ${excerpt}` : ''}`, {
    status: response.status,
  });
}
