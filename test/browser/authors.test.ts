import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startHttpsEndpoint, type HttpsEndpoint } from '../support/https-endpoint.ts';
import { createQueue, startDashboard, submit, watchErrors, type Dashboard } from './harness.ts';

// Callbacks given to page.evaluate and waitForFunction run in the browser; the project's type set
// has no DOM, so their globals are declared here, for this file only.
declare const window: any, document: any;

const XSS = {
  img: '<img src=x onerror="window.__xss=1">',
  script: '<script>window.__xss=2</script>',
  svg: '"><svg onload="window.__xss=3">',
};

const SIX_KINDS = [
  { type: 'heading', label: 'Billing' },
  { type: 'field', label: 'Plan', value: 'Pro', tooltip: 'since 2024' },
  { type: 'status', label: 'Account', value: 'Good standing', variant: 'success' },
  { type: 'metric', label: 'Lifetime value', value: '€1,234' },
  { type: 'separator' },
  { type: 'link', label: 'Open in CRM', url: 'https://crm.example.com/u/1', variant: 'outline' },
  { type: 'hologram', label: 'unknown kind' },
  { type: 'link', label: 'Not https', url: 'javascript:window.__xss=4' },
];

describe('browser: authors and custom data', () => {
  let d: Dashboard;
  let endpoint: HttpsEndpoint;
  let queueId: string;
  before(async () => {
    endpoint = await startHttpsEndpoint();
    // The endpoint's self-signed certificate is trusted by this server only (OUTBOUND_CA_FILE).
    d = await startDashboard({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOUND_CA_FILE: endpoint.certFile, CUSTOM_DATA_TIMEOUT_MS: '3000', CUSTOM_DATA_CACHE_SECONDS: '0' });
    for (const [id, name] of [['temp-1', 'Tess Temporary'], ['cd-1', 'Carla Custom'], ['slow-1', 'Sam Slow']]) {
      const created = await d.test.request('POST', '/v1/authors', { body: { external_id: id, name, email: `${id}@example.com` } });
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    const xssAuthor = await d.test.request('POST', '/v1/authors', { body: { external_id: 'xss-1', name: XSS.img, external_link: 'https://platform.example.com/u/x?q=%22%3E%3Csvg%20onload%3Dwindow.__xss%3D5%3E', profile_picture: 'https://127.0.0.1:1/x.png', metadata: { note: XSS.script, email_verified: true } } });
    assert.equal(xssAuthor.status, 200, JSON.stringify(xssAuthor.body));
    await submit(d.test, [{ contentId: 'xss-item', text: `${XSS.img} ${XSS.script} ${XSS.svg}`, authorId: 'xss-1', conversationId: 'xss', metadata: { label: XSS.svg } }]);
    queueId = await createQueue(d.test, `Queue ${XSS.svg}`, { conversationIds: ['xss'] });
  });
  after(async () => {
    await d.close();
    await endpoint.close();
  });

  const noScriptRan = async (page: Page) => assert.equal(await page.evaluate(() => (window as unknown as { __xss?: number }).__xss), undefined, 'no payload ran');

  test('suspending an author for a duration shows the time left, and the block ends by itself', async () => {
    const mod = await d.addUser('blocker@example.com', 'moderator');
    const page = await d.signedIn(mod.email);
    const errors = watchErrors(page);
    await page.goto(`${d.test.url}/authors/temp-1`);
    await page.getByTestId('author-name').filter({ hasText: 'Tess Temporary' }).waitFor();
    await page.getByRole('button', { name: 'Suspend for…' }).click();
    const dialog = page.getByRole('dialog', { name: /Suspend Tess Temporary/ });
    await dialog.getByLabel('Duration').fill('5');
    await dialog.getByLabel('Unit').selectOption('minutes');
    await dialog.getByLabel(/Reason/).fill('cooling off');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await page.getByTestId('block-status').filter({ hasText: 'Suspended' }).waitFor();
    assert.match((await page.getByTestId('block-remaining').textContent())!, /^[45] min left$/);
    await page.getByRole('region', { name: 'Audit trail' }).getByText('by blocker@example.com').first().waitFor();
    await page.getByRole('button', { name: 'Unblock' }).click();
    await page.getByRole('dialog', { name: /Unblock/ }).getByRole('button', { name: 'Unblock' }).click();
    await page.getByTestId('block-status').waitFor({ state: 'detached' });

    // A short suspension: the countdown runs out and the page shows the author enabled again.
    await page.getByRole('button', { name: 'Suspend for…' }).click();
    await dialog.getByLabel('Duration').fill('0.08');
    await dialog.getByLabel('Unit').selectOption('minutes');
    await dialog.getByRole('button', { name: 'Suspend' }).click();
    await page.getByTestId('block-status').filter({ hasText: 'Suspended' }).waitFor();
    await page.getByTestId('block-status').waitFor({ state: 'detached', timeout: 20_000 });
    await page.locator('.page-header').getByText('enabled', { exact: true }).waitFor();
    const author = await d.test.request('GET', '/v1/authors?pageSize=100');
    assert.equal(author.body.authors.find((a: { external_id: string }) => a.external_id === 'temp-1').status, 'enabled');

    // Trust level: a manual override with its reason.
    await page.getByRole('button', { name: 'Change trust level' }).click();
    const trust = page.getByRole('dialog', { name: 'Change trust level' });
    await trust.getByLabel('Trust level').selectOption('-1');
    await trust.getByLabel(/Reason/).fill('ban evasion suspected');
    await trust.getByRole('button', { name: 'Save trust level' }).click();
    await page.getByTestId('trust-override').filter({ hasText: 'ban evasion suspected' }).waitFor();
    assert.deepEqual(errors, []);
  });

  test('the custom-data panel renders all six kinds from the HTTPS endpoint; a slow endpoint shows a quiet note', async () => {
    endpoint.respond = ({ body }) => {
      const request = JSON.parse(body) as { author: { externalId: string } };
      if (request.author.externalId === 'slow-1') return { delayMs: 8000, body: JSON.stringify({ version: 1, items: SIX_KINDS }) };
      return { body: JSON.stringify({ version: 1, items: SIX_KINDS }) };
    };
    // The admin configures the integration on its page.
    const admin = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await admin.getByRole('link', { name: 'Custom data' }).click();
    await admin.getByLabel('Enable the integration').check();
    await admin.getByLabel('Endpoint URL').fill(`${endpoint.url}/custom-data`);
    await admin.getByRole('button', { name: 'Add a header' }).click();
    await admin.getByLabel('Header 1 name').fill('X-Crm-Key');
    await admin.getByLabel('Header 1 value').fill('crm-secret');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.getByText('Custom data settings saved').waitFor();
    await admin.getByLabel('Header 1 value').and(admin.locator('[placeholder^="Saved"]')).waitFor();

    const mod = await d.addUser('viewer@example.com', 'moderator');
    const page = await d.signedIn(mod.email);
    await page.goto(`${d.test.url}/authors/cd-1`);
    const panel = page.getByTestId('custom-data');
    // Generous: the endpoint answers at once, but this machine may be busy.
    await panel.getByText('Good standing').waitFor({ timeout: 20_000 });
    assert.equal(await panel.locator('[data-kind="heading"]').textContent(), 'Billing');
    await panel.locator('[data-kind="field"]').getByText('Pro').waitFor();
    assert.equal(await panel.locator('[data-kind="field"]').getAttribute('title'), 'since 2024');
    assert.match((await panel.locator('[data-kind="status"] .badge').getAttribute('class'))!, /badge-success/);
    assert.equal(await panel.locator('[data-kind="metric"] .figure').textContent(), '€1,234');
    assert.equal(await panel.locator('[data-kind="separator"]').count(), 1);
    const links = panel.locator('[data-kind="link"] a');
    assert.equal(await links.count(), 1, 'the javascript: link is not rendered');
    assert.equal(await links.getAttribute('href'), 'https://crm.example.com/u/1');
    assert.equal(await links.getAttribute('target'), '_blank');
    assert.equal(await links.getAttribute('rel'), 'noopener noreferrer');
    await panel.getByText(/Skipped 1 item\(s\) of unknown kind and 1 invalid/).waitFor();
    const call = endpoint.requests.at(-1)!;
    assert.equal(call.headers['x-crm-key'], 'crm-secret');
    assert.deepEqual(JSON.parse(call.body).author, { externalId: 'cd-1', email: 'cd-1@example.com' });

    // The slow endpoint (8 s, past the 3 s timeout): the page shows the author, and the panel says
    // quietly that the server gave up; the endpoint's late answer is never shown.
    await page.goto(`${d.test.url}/authors/slow-1`);
    await page.getByTestId('author-name').filter({ hasText: 'Sam Slow' }).waitFor();
    await page.getByTestId('custom-data-unavailable').waitFor({ timeout: 20_000 });
    assert.match((await page.getByTestId('custom-data-unavailable').textContent())!, /Custom data unavailable \(timeout\)/);
    assert.equal(await page.getByTestId('custom-data').getByText('Good standing').count(), 0);
  });

  test('a moderator is denied the configuration page', async () => {
    const mod = await d.addUser('no-config@example.com', 'moderator');
    const page = await d.signedIn(mod.email);
    assert.equal(await page.getByRole('link', { name: 'Custom data' }).count(), 0, 'no Configure link for moderators');
    await page.goto(`${d.test.url}/configure/custom-data`);
    await page.getByRole('heading', { name: 'You do not have access to the custom-data configuration' }).waitFor();
    assert.equal(await page.getByLabel('Endpoint URL').count(), 0);
  });

  test('the authors list sorts by a key in both directions; the audit log filters by moderator and kind', async () => {
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await page.getByRole('link', { name: 'Authors' }).click();
    await page.getByRole('table', { name: 'Authors' }).waitFor();
    const levels = async () => (await page.locator('table[aria-label="Authors"] tbody tr td:nth-child(3) .badge').evaluateAll((els) => els.map((el) => Number(/Trust level (-?\d+)/.exec(el.getAttribute('title') ?? '')?.[1]))));
    await page.getByLabel('Sort by').selectOption('trustLevel');
    await page.waitForURL(/sortBy=trustLevel/);
    await page.getByLabel('Direction').selectOption('asc');
    await page.waitForURL(/sortDirection=asc/);
    await page.getByText('Tess Temporary').waitFor();
    const ascending = await levels();
    assert.ok(ascending.length >= 4 && ascending.every((v, i) => i === 0 || ascending[i - 1]! <= v), `ascending: ${ascending}`);
    assert.equal(ascending[0], -1, 'the manual Untrusted override sorts first');
    await page.getByLabel('Direction').selectOption('desc');
    await page.waitForURL(/sortDirection=desc/);
    await page.waitForFunction(() => !document.querySelector('table[aria-label="Authors"] tbody tr')?.textContent?.includes('Tess Temporary'));
    const descending = await levels();
    assert.ok(descending.every((v, i) => i === 0 || descending[i - 1]! >= v), `descending: ${descending}`);
    await page.getByText(/Page 1 · \d+ authors/).waitFor();

    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByLabel('Moderator').fill('blocker@example.com');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/moderator=blocker%40example\.com/);
    const rows = page.locator('table[aria-label="Audit entries"] tbody tr');
    await rows.first().filter({ hasText: 'blocker@example.com' }).waitFor();
    const who = await rows.locator('td:nth-child(2)').allTextContents();
    assert.ok(who.length >= 3 && who.every((w) => w === 'blocker@example.com'), `who: ${who}`);
    await page.getByLabel('Kind').selectOption('trust_level');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/kind=trust_level/);
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Audit entries"] tbody tr').length === 1);
    await rows.first().getByText('ban evasion suspected').waitFor();
  });

  test('payloads in content, author names, metadata, queue names and custom data render as text', async () => {
    endpoint.respond = () => ({ body: JSON.stringify({ version: 1, items: [{ type: 'field', label: XSS.img, value: XSS.script, tooltip: XSS.svg }, { type: 'heading', label: XSS.svg }, { type: 'link', label: XSS.img, url: 'https://crm.example.com/?q=<script>' }] }) });
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    const errors = watchErrors(page);
    await page.goto(`${d.test.url}/queues`);
    await page.getByRole('link', { name: `Queue ${XSS.svg}` }).click();
    await page.getByTestId('item-preview').filter({ hasText: XSS.img }).waitFor();
    await page.getByRole('link', { name: XSS.img }).first().waitFor(); // the author's name, as text
    await noScriptRan(page);
    await page.getByTestId('item-preview').click();
    await page.getByTestId('content-text').filter({ hasText: `${XSS.img} ${XSS.script} ${XSS.svg}` }).waitFor();
    await page.getByRole('region', { name: 'Metadata' }).getByText(XSS.svg).waitFor();
    await noScriptRan(page);
    await page.goto(`${d.test.url}/authors/xss-1`);
    await page.getByTestId('author-name').filter({ hasText: XSS.img }).waitFor();
    await page.getByRole('region', { name: 'Metadata' }).getByText(XSS.script).waitFor();
    const profile = page.getByTestId('external-link');
    assert.equal(await profile.getAttribute('rel'), 'noopener noreferrer');
    assert.equal(await profile.getAttribute('target'), '_blank');
    assert.match((await profile.getAttribute('href'))!, /^https:\/\/platform\.example\.com\/u\/x\?q=%22%3E%3Csvg/);
    const panel = page.getByTestId('custom-data');
    await panel.getByText(XSS.script).waitFor();
    await panel.getByRole('heading', { name: XSS.svg }).waitFor();
    await panel.getByRole('link', { name: new RegExp(XSS.img.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).waitFor();
    await noScriptRan(page);
    assert.equal(await page.locator('#root img[src="x"], #root svg[onload], #root script').count(), 0, 'no element was made from a payload');
    assert.deepEqual(errors, []);
  });
});
