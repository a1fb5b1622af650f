import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { ensureDashboardBuilt } from '../../dashboard/build.mjs';
import { startTestServer, type TestServer } from '../helpers.ts';
import { createUser } from '../../src/services/dashboard/users.ts';
import { setMembership } from '../../src/services/dashboard/users.ts';

/**
 * Browser tests drive the built dashboard in Debian's chromium (`apt-get install chromium`;
 * .ci/run installs it) through playwright-core: no browser download, a fresh profile per browser.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const PASSWORD = 'correct horse battery staple';

export interface Dashboard {
  test: TestServer;
  /** A fresh browser profile (user-data dir) per context; closed with the harness. */
  newContext(options?: { width?: number; height?: number; ignoreHTTPSErrors?: boolean }): Promise<BrowserContext>;
  /** A user with a known password and a role in the test project. */
  addUser(email: string, role: 'admin' | 'developer' | 'moderator', queueIds?: string[] | null): Promise<{ email: string; password: string }>;
  signedIn(email: string, password?: string, options?: { width?: number; height?: number }): Promise<Page>;
  close(): Promise<void>;
}

let built: Promise<boolean> | null = null;

export async function startDashboard(env: Record<string, string> = {}): Promise<Dashboard> {
  built ??= ensureDashboardBuilt({ quiet: true });
  await built;
  const test = await startTestServer(env);
  const contexts: { context: BrowserContext; browser: Browser; dir: string }[] = [];
  const dashboard: Dashboard = {
    test,
    async newContext(options = {}) {
      const dir = mkdtempSync(join(tmpdir(), 'om-chromium-'));
      const context = await chromium.launchPersistentContext(dir, {
        executablePath: CHROMIUM,
        headless: true,
        args: ARGS,
        viewport: { width: options.width ?? 1280, height: options.height ?? 900 },
        ignoreHTTPSErrors: options.ignoreHTTPSErrors ?? false,
        locale: 'en-GB',
        timezoneId: 'UTC',
      });
      // Generous: the machine running the tests may be busy with other work.
      context.setDefaultTimeout(20_000);
      contexts.push({ context, browser: context.browser()!, dir });
      return context;
    },
    async addUser(email, role, queueIds = null) {
      const { user } = await createUser(test.server.db, { email, password: PASSWORD, name: email.split('@')[0] });
      await setMembership(test.server.db, user.id, test.projectId, role, queueIds);
      return { email, password: PASSWORD };
    },
    async signedIn(email, password = PASSWORD, options = {}) {
      const context = await dashboard.newContext(options);
      const page = context.pages()[0] ?? (await context.newPage());
      await signIn(page, test.url, email, password);
      await page.getByRole('heading', { name: 'Review queues' }).or(page.getByRole('navigation', { name: 'Main' })).first().waitFor();
      return page;
    },
    async close() {
      for (const { context, dir } of contexts) {
        await context.close().catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      }
      await test.close();
    },
  };
  return dashboard;
}

export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(`${url}/sign-in`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Submits content through the public API (the same path a platform uses) and returns the stored ids. */
export async function submit(test: TestServer, items: { contentId: string; text?: string; content?: unknown; authorId?: string; conversationId?: string; metadata?: Record<string, unknown> }[]): Promise<void> {
  for (const item of items) {
    const response = await test.request('POST', '/v1/moderate', {
      body: {
        content: item.content ?? { type: 'text', text: item.text },
        contentId: item.contentId,
        ...(item.authorId ? { authorId: item.authorId } : {}),
        ...(item.conversationId ? { conversationId: item.conversationId } : {}),
        ...(item.metadata ? { metadata: item.metadata } : {}),
      },
    });
    if (response.status !== 200) throw new Error(`moderate ${item.contentId}: ${response.status} ${JSON.stringify(response.body)}`);
  }
}

export async function createQueue(test: TestServer, name: string, filter: Record<string, unknown> = {}): Promise<string> {
  const response = await test.request('POST', '/v1/queue', { body: { name, filter } });
  if (response.status !== 201) throw new Error(`queue: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.queue.id as string;
}

/** Collects what the page logs as errors (CSP violations, uncaught exceptions) so a test can assert none. */
export function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(`pageerror: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/Failed to load resource/.test(message.text())) errors.push(`console: ${message.text()}`);
  });
  return errors;
}
