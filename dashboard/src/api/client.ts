// The one client of the dashboard API: same-origin JSON, the session cookie, and the CSRF header on
// every state-changing call. Errors arrive as the server's {code, message, issues} body.

export interface ErrorIssue {
  message: string;
  path?: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly issues: ErrorIssue[] = [],
  ) {
    super(message);
  }
}

export const CSRF_HEADER = 'x-csrf-token';
let csrfToken: string | null = null;
const unauthorizedListeners = new Set<() => void>();

export function setCsrfToken(token: string | null): void {
  csrfToken = token;
}

/** Called when any call answers 401: the session ended (expired, revoked or signed out elsewhere). */
export function onUnauthorized(listener: () => void): () => void {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
}

export type Query = Record<string, string | number | boolean | undefined | null | readonly string[]>;

export function withQuery(path: string, query?: Query): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    if (Array.isArray(value)) {
      if (value.length > 0) params.set(key, value.join(','));
    } else params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

export async function request<T>(method: string, path: string, options: { body?: unknown; query?: Query; signal?: AbortSignal } = {}): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && method !== 'HEAD' && csrfToken) headers[CSRF_HEADER] = csrfToken;
  let response: Response;
  try {
    response = await fetch(withQuery(`/dashboard/api${path}`, options.query), {
      method,
      headers,
      credentials: 'same-origin',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if ((error as Error).name === 'AbortError') throw error;
    throw new ApiError(0, 'NETWORK', 'The server could not be reached. Check your connection and try again.');
  }
  const text = await response.text();
  let body: unknown = null;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      body = null;
    }
  }
  if (!response.ok) {
    const error = (body ?? {}) as { code?: string; message?: string; issues?: ErrorIssue[] };
    if (response.status === 401 && !path.startsWith('/session')) for (const listener of unauthorizedListeners) listener();
    throw new ApiError(response.status, error.code ?? 'HTTP_ERROR', error.message ?? `The server answered ${response.status}`, error.issues ?? []);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} }),
  patch: <T>(path: string, body?: unknown) => request<T>('PATCH', path, { body: body ?? {} }),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
};

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) {
    const detail = error.issues.map((i) => i.message).filter((m) => m && m !== error.message);
    return detail.length > 0 ? `${error.message}: ${detail.join('; ')}` : error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

/** The prefix of everything about one project. */
export const projectPath = (projectId: string, rest = ''): string => `/projects/${encodeURIComponent(projectId)}${rest}`;
export const seg = encodeURIComponent;
