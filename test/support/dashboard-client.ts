import type { TestServer } from '../helpers.ts';

/** A signed-in dashboard user as a browser would be: the session cookie and the CSRF token. */
export interface DashboardClient {
  cookie: string;
  csrfToken: string;
  session: any;
  /** A dashboard API call (path after /dashboard/api) with the cookie and, unless `csrf: false`, the CSRF header. */
  call(method: string, path: string, options?: { body?: unknown; csrf?: boolean; headers?: Record<string, string> }): Promise<{ status: number; body: any; headers: Headers }>;
}

export async function signIn(t: TestServer, email: string, password: string): Promise<DashboardClient> {
  const response = await fetch(`${t.url}/dashboard/api/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as any;
  if (response.status !== 200) throw new Error(`sign-in of ${email} failed: ${response.status} ${JSON.stringify(body)}`);
  const setCookie = response.headers.get('set-cookie') ?? '';
  const cookie = setCookie.split(';')[0]!;
  return clientFor(t, cookie, body.csrfToken, body);
}

export function clientFor(t: TestServer, cookie: string, csrfToken: string, session: any = null): DashboardClient {
  return {
    cookie,
    csrfToken,
    session,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { cookie, ...options.headers };
      if (options.csrf !== false && method !== 'GET') headers['x-csrf-token'] = csrfToken;
      if (options.body !== undefined) headers['content-type'] = 'application/json';
      const response = await fetch(`${t.url}/dashboard/api${path}`, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = text === '' ? null : JSON.parse(text);
      } catch {
        // keep the text
      }
      return { status: response.status, body, headers: response.headers };
    },
  };
}
