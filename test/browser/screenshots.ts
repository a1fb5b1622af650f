// Writes the screenshots of docs/screenshots/ from a seeded server: `npm run screenshots`.
// Not a test (no .test.ts): it runs only when asked, and overwrites the PNG files.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { startHttpsEndpoint } from '../support/https-endpoint.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';
import { copyItemAt } from '../support/seed-history.ts';
import { createQueue, startDashboard, submit } from './harness.ts';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
mkdirSync(OUT, { recursive: true });

const endpoint = await startHttpsEndpoint();
endpoint.respond = () => ({
  body: JSON.stringify({
    version: 1,
    items: [
      { type: 'heading', label: 'Account' },
      { type: 'status', label: 'Plan', value: 'Pro · paying', variant: 'success' },
      { type: 'field', label: 'Signed up', value: '12 March 2025' },
      { type: 'field', label: 'Country', value: 'Portugal' },
      { type: 'metric', label: 'Orders', value: '37' },
      { type: 'separator' },
      { type: 'heading', label: 'Support' },
      { type: 'status', label: 'Open tickets', value: '2 open', variant: 'warning' },
      { type: 'link', label: 'Open in CRM', url: 'https://crm.example.com/customers/4812', variant: 'outline' },
    ],
  }),
});
const d = await startDashboard({ ALLOW_PRIVATE_OUTBOUND: 'true', OUTBOUND_CA_FILE: endpoint.certFile, CUSTOM_DATA_CACHE_SECONDS: '0' });
try {
  const authors: [string, string, Record<string, unknown>][] = [
    ['u-4812', 'Marta Silva', { email_verified: true, phone_verified: true, is_paying_customer: true, plan: 'pro' }],
    ['u-2201', 'deals4you', { email_verified: false }],
    ['u-3390', 'Jonas K.', { email_verified: true }],
    ['u-7781', 'nightowl_77', {}],
  ];
  for (const [id, name, metadata] of authors) {
    await d.test.request('POST', '/v1/authors', { body: { external_id: id, name, email: `${id}@example.com`, metadata, external_link: `https://forum.example.com/u/${id}`, first_seen: Date.now() - 86_400_000 * 200 } });
  }
  const messages: [string, string, string, string][] = [
    ['msg-1001', 'u-2201', 'market', 'Buy cheap followers now!!! Visit my shop and DM me on whatsapp +1 415 555 0134 for 50% off'],
    ['msg-1002', 'u-7781', 'general', 'What the fuck is wrong with you, you absolute idiot'],
    ['msg-1003', 'u-2201', 'market', 'Log in to your pаypal account now to claim your free\u200Bmoney reward'],
    ['msg-1004', 'u-3390', 'general', 'I will find where you live and you will regret this'],
    ['msg-1005', 'u-4812', 'support', 'My email is marta.silva@example.org, please call me back about the refund'],
    ['msg-1006', 'u-7781', 'general', 'shut up, nobody asked for your stupid opinion'],
    ['msg-1007', 'u-2201', 'market', 'Crypto giveaway!!! Send 0.1 BTC and get 1 BTC back, limited time only'],
    ['msg-1008', 'u-3390', 'general', 'This update is garbage and the devs are morons'],
  ];
  for (const [contentId, authorId, conversationId, text] of messages) await submit(d.test, [{ contentId, authorId, conversationId, text }]);
  const queue = await createQueue(d.test, 'Flagged content', { flagged: 'FLAGGED' });
  await createQueue(d.test, 'Marketplace', { conversationIds: ['market'] });
  await createQueue(d.test, 'Everything');
  await d.test.request('POST', '/v1/actions/execute', { body: { actionKey: 'warn', authorIds: ['u-7781'], value: 'insults' } }).catch(() => undefined);

  const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
  const shot = async (p: Page, name: string) => {
    await p.waitForLoadState('networkidle');
    await p.screenshot({ path: `${OUT}${name}.png`, fullPage: false });
    console.log(`docs/screenshots/${name}.png`);
  };
  // Custom data on: the admin saves it through the page.
  await page.goto(`${d.test.url}/configure/custom-data`);
  await page.getByLabel('Enable the integration').check();
  await page.getByLabel('Endpoint URL').fill(`${endpoint.url}/om/custom-data`);
  await page.getByRole('button', { name: 'Add a header' }).click();
  await page.getByLabel('Header 1 name').fill('X-Crm-Key');
  await page.getByLabel('Header 1 value').fill('secret');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Custom data settings saved').waitFor();
  await page.getByText('Custom data settings saved').waitFor({ state: 'detached' });
  await shot(page, 'custom-data-settings');

  await page.goto(`${d.test.url}/queues`);
  await page.getByRole('table', { name: 'Review queues' }).waitFor();
  await shot(page, 'queues');
  await page.goto(`${d.test.url}/queues/${queue}`);
  await page.getByRole('table', { name: 'Queue items' }).waitFor();
  await page.keyboard.press('j');
  await shot(page, 'queue');
  await page.keyboard.press('?');
  await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor();
  await shot(page, 'shortcuts');
  await page.keyboard.press('Escape');
  // Some moderation, for the audit log.
  for (const reason of ['insults another member', 'threat']) {
    await page.keyboard.press('r');
    await page.getByRole('dialog', { name: 'Reject item' }).waitFor();
    await page.keyboard.type(reason);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
  await page.goto(`${d.test.url}/queues/${queue}/items/msg-1003`);
  await page.getByTestId('unicode-findings').waitFor();
  await shot(page, 'item-unicode');
  await page.goto(`${d.test.url}/queues/${queue}/items/msg-1001`);
  await page.getByTestId('policy-results').waitFor();
  await shot(page, 'item');
  await page.goto(`${d.test.url}/authors/u-4812`);
  await page.getByTestId('custom-data').getByText('Open in CRM').waitFor();
  await shot(page, 'author');
  await page.goto(`${d.test.url}/authors?sortBy=contentCount`);
  await page.getByRole('table', { name: 'Authors' }).waitFor();
  await shot(page, 'authors');
  await page.goto(`${d.test.url}/audit`);
  await page.getByRole('table', { name: 'Audit entries' }).or(page.getByText('No entry matches.')).waitFor();
  await shot(page, 'audit');

  // Configure pages (issue #29).
  const full = async (p: Page, name: string) => {
    await p.waitForLoadState('networkidle');
    await p.screenshot({ path: `${OUT}${name}.png`, fullPage: true });
    console.log(`docs/screenshots/${name}.png`);
  };
  await d.test.request('POST', '/v1/wordlist', { body: { name: 'Scam phrases', key: 'scams', words: ['free money', 'gift card', 'crypto giveaway', 'whatsapp', 'dm me', 'limited time only', 'send btc', 'claim your reward'] } });
  await d.test.request('POST', '/v1/channels', {
    body: {
      key: 'marketplace',
      name: 'Marketplace listings',
      policies: [{ id: 'spam', flag: true }, { id: 'toxicity', flag: true, threshold: 0.7 }, { id: 'pii', mode: 'shadow' }, { id: 'unicode_spoofing', flag: true }, { id: 'wordlist_scams', flag: true }],
      triage: { preset: 'strict' },
      alwaysReview: ['wordlist_scams'],
      rules: [{ name: 'Scams from new authors', when: { policies: [{ id: 'wordlist_scams', flagged: true }], trustLevel: { max: 0 } }, action: 'reject' }],
    },
  });
  await d.test.request('POST', '/v1/actions', { body: { name: 'Escalate to legal', key: 'escalate', possibleValues: [{ value: 'copyright' }, { value: 'threat' }], valueRequired: true, queueBehaviour: 'REMOVE' } });
  await page.goto(`${d.test.url}/configure/channels`);
  await page.getByRole('table', { name: 'Channels' }).waitFor();
  await shot(page, 'config-channels');
  await page.goto(`${d.test.url}/configure/channels/marketplace`);
  await page.getByTestId('unicode-settings').waitFor();
  await full(page, 'config-channel');
  await page.getByTestId('unicode-settings').scrollIntoViewIfNeeded();
  await page.getByTestId('unicode-settings').getByLabel('Shadow flag').check();
  await page.getByTestId('unicode-settings').getByLabel('Signal Invisible character').uncheck();
  await page.getByRole('button', { name: 'Save changes' }).first().click();
  await page.getByTestId('saved-changes').waitFor();
  await page.getByTestId('unicode-settings').screenshot({ path: `${OUT}config-unicode.png` });
  console.log('docs/screenshots/config-unicode.png');
  await page.goto(`${d.test.url}/configure/playground?channel=marketplace`);
  await page.getByLabel('Text to test').fill('Claim your free\u200Bmoney now: log in to your pаypal and DM me on whatsapp, or write to deals4you@example.com');
  await page.getByRole('button', { name: 'Run' }).click();
  await page.getByTestId('playground-result').waitFor();
  await full(page, 'config-playground');
  await page.goto(`${d.test.url}/configure/queues/new`);
  await page.getByLabel('Queue name').fill('Marketplace, flagged');
  await page.getByLabel('Conversations').fill('market');
  await page.getByRole('button', { name: 'Add a policy condition' }).click();
  await page.getByLabel('Condition 1 policy').selectOption('spam');
  await page.getByLabel('Condition 1 test').selectOption('THRESHOLDS');
  await page.getByLabel('Condition 1 minimum').fill('0.3');
  await page.waitForFunction(() => (globalThis as any).document.querySelector('[data-testid="preview-count"][data-current="true"]'));
  await full(page, 'config-queue');
  await page.goto(`${d.test.url}/configure/wordlists`);
  await page.getByRole('table', { name: 'Wordlists' }).waitFor();
  await shot(page, 'config-wordlists');
  await page.getByRole('link', { name: 'Scam phrases' }).click();
  await page.getByTestId('word-matches').waitFor();
  await shot(page, 'config-wordlist');
  await page.goto(`${d.test.url}/configure/actions`);
  await page.getByRole('table', { name: 'Actions' }).waitFor();
  await shot(page, 'config-actions');
  await page.locator('tr[data-action="escalate"]').getByRole('button', { name: 'Edit' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Escalate to legal' });
  await dialog.getByLabel('Shown in').selectOption('SOME_QUEUES');
  await dialog.getByLabel('Marketplace').check();
  await dialog.getByRole('button', { name: 'Add a webhook' }).click();
  await dialog.getByLabel('Webhook 1 name').fill('Legal desk');
  await dialog.getByLabel('Webhook 1 URL').fill('https://legal.example.com/hooks/moderation');
  await shot(page, 'config-action-edit');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Action “Escalate to legal” saved').waitFor();
  // Configure pages of the admins and developers.
  const receiver = await startWebhookReceiver();
  receiver.respond = ({ total }) => (total === 2 ? 503 : 200);
  try {
    await page.goto(`${d.test.url}/configure/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const hook = page.getByRole('dialog', { name: 'Add a webhook endpoint' });
    await hook.getByLabel('Name').fill('Forum moderation sync');
    await hook.getByLabel('Endpoint URL').fill(`${receiver.url}/om/webhooks`);
    for (const event of ['QUEUE_ITEM_ACTION', 'AUTHOR_BLOCKED', 'AUTHOR_UPDATED']) await hook.getByLabel(event).check();
    await hook.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('table', { name: 'Webhook endpoints' }).waitFor();
    for (const name of ['Marta S.', 'Marta Silva', 'Marta']) await d.test.request('PUT', '/v1/authors/u-4812', { body: { name } });
    await receiver.waitFor((list) => list.length >= 3);
    await page.reload();
    await page.getByRole('button', { name: 'Reveal' }).click();
    await page.getByRole('button', { name: 'Copy' }).waitFor();
    await shot(page, 'webhooks');
    // The action's webhook (above) is listed too: open this endpoint's log.
    await page.getByRole('row').filter({ hasText: 'Forum moderation sync' }).getByRole('link', { name: 'Deliveries' }).click();
    await page.getByRole('table', { name: 'Delivery attempts' }).waitFor();
    await shot(page, 'webhook-deliveries');
  } finally {
    await receiver.close();
  }

  await page.goto(`${d.test.url}/configure/api-keys`);
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Key name').fill('Forum backend (production)');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByLabel('New API key').waitFor();
  await shot(page, 'api-keys');

  await page.goto(`${d.test.url}/configure/members`);
  await page.getByRole('button', { name: 'Add member' }).click();
  const member = page.getByRole('dialog', { name: 'Add a member' });
  await member.getByLabel('Email').fill('joana@example.com');
  await member.getByLabel(/^Moderator/).check();
  await member.getByLabel('Limit to some queues').check();
  await member.getByLabel('Marketplace').check();
  await shot(page, 'member-add');
  await member.getByRole('button', { name: 'Add member' }).click();
  await page.getByLabel('One-time password').waitFor();
  await shot(page, 'members');

  // Three weeks of history behind the overview: copies of the stored messages, a varying number per day.
  const day = 86_400_000;
  const today = Math.floor(Date.now() / day) * day;
  for (let back = 1; back <= 20; back++) {
    for (const [i, [contentId]] of messages.entries()) {
      const copies = Math.round(6 + 4 * Math.sin(back / 2 + i) + (i % 3) * 2 + (back % 7 === 0 ? 6 : 0));
      await copyItemAt(d.test.server.db, d.test.projectId, contentId, Array.from({ length: Math.max(0, copies) }, (_, k) => ({ externalId: `hist-${back}-${contentId}-${k}`, at: today - back * day + 3_600_000 * (8 + ((k * 5) % 12)) })));
    }
  }
  await page.goto(`${d.test.url}/overview?period=30d`);
  await page.getByTestId('chart-submissions').locator('rect.chart-bar:not([data-value="0"])').first().waitFor();
  await page.setViewportSize({ width: 1280, height: 1500 });
  await shot(page, 'overview');
  await page.setViewportSize({ width: 1280, height: 900 });

  const phone = await d.signedIn(d.test.admin.email, d.test.admin.password, { width: 390, height: 844 });
  await phone.goto(`${d.test.url}/queues/${queue}/items/msg-1003`);
  await phone.getByTestId('content-text').waitFor();
  await shot(phone, 'phone-item');

  const signInPage = await (await d.newContext()).newPage();
  await signInPage.goto(`${d.test.url}/sign-in`);
  await shot(signInPage, 'sign-in');
} finally {
  await d.close();
  await endpoint.close();
}
