/**
 * Calls to the operator's media backends (transcription, vision) through the one outbound
 * client (src/net/outbound.ts): address vetting unless the backend is marked trusted, a time cap
 * and a byte cap on the answer. Failures become MediaErrors whose message names the backend.
 */
import type { MediaBackendConfig } from '../config.ts';
import { outboundFetch, OutboundError, type OutboundResponse } from '../net/outbound.ts';
import { MediaError } from './types.ts';

export interface BackendCallOptions {
  /** Development and tests (ALLOW_PRIVATE_OUTBOUND): a backend on a private address without marking it trusted. */
  allowPrivate?: boolean;
  signal?: AbortSignal;
}

const MAX_ANSWER_BYTES = 1_048_576;

/** `base` + `endpoint`, unless the operator configured the full endpoint URL already. */
export function endpointUrl(base: string, endpoint: string): string {
  const trimmed = base.replace(/\/+$/, '');
  return trimmed.endsWith(endpoint) ? trimmed : `${trimmed}${endpoint}`;
}

export async function callBackend(
  backend: MediaBackendConfig,
  what: string,
  url: string,
  request: { headers: Record<string, string>; body: Buffer | string },
  options: BackendCallOptions,
): Promise<unknown> {
  const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
  if (backend.apiKey) headers.authorization = `Bearer ${backend.apiKey}`;
  let response: OutboundResponse;
  try {
    response = await outboundFetch(url, {
      method: 'POST',
      headers,
      body: request.body,
      timeoutMs: backend.timeoutMs,
      maxBytes: MAX_ANSWER_BYTES,
      trusted: backend.trusted,
      allowPrivate: options.allowPrivate === true,
      // A backend that redirects is misconfigured; following it would re-send the upload.
      maxRedirects: 0,
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if (error instanceof OutboundError) {
      if (error.code === 'timeout') throw new MediaError('timed_out', `The ${what} backend did not answer within ${backend.timeoutMs} ms`, { cause: error });
      throw new MediaError('backend_failed', `The ${what} backend could not be reached (${error.code}: ${error.message})`, { cause: error });
    }
    throw error;
  }
  if (response.status < 200 || response.status >= 300) {
    const excerpt = response.body.subarray(0, 200).toString('utf8').replace(/\s+/g, ' ').trim();
    throw new MediaError('backend_failed', `The ${what} backend answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ''}`);
  }
  try {
    return JSON.parse(response.body.toString('utf8'));
  } catch (error) {
    throw new MediaError('backend_failed', `The ${what} backend did not answer with JSON`, { cause: error });
  }
}
