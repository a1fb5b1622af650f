import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Page } from 'playwright-core';
import { startDashboard, watchErrors, type Dashboard } from './harness.ts';

// Spoofed but otherwise harmless, so that only the Unicode spoofing policy decides the verdict.
const SPOOFED = 'Meet me at the pаrk at noon, I will bring the picnic\u200Bbasket';

describe('browser: configuration pages', () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
  });
  after(() => d.close());

  /** The playground's run of a text on the default channel; answers the unicode_spoofing score row. */
  async function runInPlayground(page: Page, text: string) {
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await page.getByLabel('Text to test').fill(text);
    await page.getByRole('button', { name: 'Run' }).click();
    const row = page.locator('[data-testid="policy-score"][data-policy="unicode_spoofing"]');
    await row.waitFor();
    return row;
  }

  test('switching Unicode spoofing to Shadow flag and one signal off changes what a playground run shows', async () => {
    const dev = await d.addUser('devon@example.com', 'developer');
    const page = await d.signedIn(dev.email);
    const errors = watchErrors(page);

    // Before: Flag mode, every signal on. The run flags, and the invisible character flags on its own.
    let row = await runInPlayground(page, SPOOFED);
    await row.getByText('flagged', { exact: true }).waitFor();
    assert.equal(await row.locator('[data-label="invisible"]').getAttribute('data-flagged'), 'true');
    // Findings are highlighted in place, with the normalized text beside.
    const text = page.getByTestId('playground-text');
    assert.equal(await text.locator('mark[data-word-signals]').count(), 2);
    assert.equal(await page.getByTestId('playground-normalized').textContent(), 'Meet me at the park at noon, I will bring the picnicbasket');
    assert.ok((await page.getByTestId('finding').count()) >= 2);
    // Content is text: the raw JSON is one click away and holds the result.
    await page.getByRole('button', { name: 'Show raw JSON' }).click();
    const raw = JSON.parse((await page.getByTestId('raw-json').textContent())!);
    assert.equal(raw.evaluation.unicode_spoofed, true);

    // The channel page: Shadow flag, invisible off, saved.
    await page.getByRole('link', { name: 'Channels & policies' }).click();
    await page.getByRole('link', { name: 'Default' }).click();
    const unicode = page.getByTestId('unicode-settings');
    await unicode.getByLabel('Shadow flag').check();
    await unicode.getByLabel('Signal Invisible character').uncheck();
    assert.equal(await unicode.locator('tr[data-current="true"] td').first().textContent(), 'on', 'the table marks this channel: normalization on, detection on');
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    const saved = page.getByTestId('saved-changes');
    await saved.waitFor();
    assert.match((await saved.textContent())!, /mode: — → "shadow"/);
    assert.match((await saved.textContent())!, /signals: — → \{"invisible":false\}/);
    const stored = (await d.test.request('GET', '/v1/channels/default')).body.policies.find((p: any) => p.id === 'unicode_spoofing');
    assert.deepEqual([stored.mode, stored.signals], ['shadow', { invisible: false }]);

    // After: the same text is shadow-flagged, not flagged; invisible is detected but does not flag.
    row = await runInPlayground(page, SPOOFED);
    await row.getByText('shadow-flagged', { exact: true }).waitFor();
    assert.equal(await row.locator('[data-label="invisible"]').getAttribute('data-flagged'), 'false');
    assert.match((await row.locator('[data-label="invisible"]').textContent())!, /100% · not flagging/);
    await page.getByTestId('verdict').getByText('not flagged', { exact: true }).waitFor();
    await page.getByTestId('verdict').getByText('shadow-flagged by unicode_spoofing').waitFor();

    // The audit log shows who changed what.
    await page.getByRole('link', { name: 'Audit log' }).click();
    await page.getByText('channel default: updated').first().waitFor();
    await page.getByRole('list', { name: 'Changes' }).first().getByText(/mode: — → "shadow"/).waitFor();
    assert.deepEqual(errors, []);
  });

  test('a queue built with the filter builder previews the number of items it will hold', async () => {
    // 30 items in two rooms, some rude; the expected count comes from the moderation answers themselves.
    const rude = ['you are an idiot', 'shut up you moron', 'what the fuck is wrong with you', 'you stupid idiot'];
    const kind = ['see you tomorrow', 'thanks for the help', 'what a lovely day', 'the meeting moved to 3pm'];
    let expected = 0;
    let expectedNotToxic = 0;
    for (let i = 0; i < 30; i++) {
      const text = `${i % 3 === 0 ? rude[i % rude.length] : kind[i % kind.length]} (${i})`;
      const conversationId = i % 2 === 0 ? 'room-a' : 'room-b';
      const r = await d.test.request('POST', '/v1/moderate', { body: { content: { type: 'text', text }, contentId: `fb-${i}`, conversationId } });
      assert.equal(r.status, 200);
      if (conversationId === 'room-a' && r.body.evaluation.flagged) {
        expected++;
        if (!r.body.policies.find((p: any) => p.id === 'toxicity')?.flagged) expectedNotToxic++;
      }
    }
    assert.ok(expected >= 3, `a non-trivial count (${expected})`);
    assert.notEqual(expectedNotToxic, expected, 'the condition below changes the count');

    const admin = await d.signedIn(d.test.admin.email, d.test.admin.password);
    const errors = watchErrors(admin);
    await admin.getByRole('link', { name: 'Queues', exact: true }).click();
    await admin.getByRole('link', { name: 'New queue' }).click();
    await admin.getByLabel('Queue name').fill('Room A, flagged');
    const previewShows = (n: number) =>
      admin.waitForFunction((want: number) => (globalThis as any).document.querySelector('[data-testid="preview-count"][data-current="true"]')?.textContent === String(want), n);
    // The page starts with "Flagged items"; narrowed to room A.
    await admin.getByLabel('Conversations').fill('room-a');
    await previewShows(expected);
    // A policy condition narrows it further, and the preview follows the server's count.
    await admin.getByRole('button', { name: 'Add a policy condition' }).click();
    await admin.getByLabel('Condition 1 policy').selectOption('toxicity');
    await admin.getByLabel('Condition 1 test').selectOption('NOT_FLAGGED');
    await previewShows(expectedNotToxic);
    await admin.getByRole('button', { name: 'Remove condition 1' }).click();
    await previewShows(expected);

    await admin.getByRole('button', { name: 'Create queue' }).click();
    await admin.getByText('Queue “Room A, flagged” created').waitFor();
    await admin.waitForURL(/\/configure\/queues\/q_/);
    const queueId = admin.url().split('/').pop()!;
    const listed = await d.test.request('GET', `/v1/queue/${queueId}/items?pageSize=100`);
    assert.equal(listed.body.items.length, expected, 'the saved queue holds what the preview counted');
    assert.deepEqual((await d.test.request('GET', `/v1/queue/${queueId}`)).body.queue.filter, { flagged: 'FLAGGED', conversationIds: ['room-a'] });
    assert.deepEqual(errors, []);
  });

  test('a wordlist of 1,500 words: searched on the server, two words removed in bulk, a CSV imported', async () => {
    const words = Array.from({ length: 1500 }, (_, i) => `scam${String(i).padStart(4, '0')}`);
    assert.equal((await d.test.request('POST', '/v1/wordlist', { body: { name: 'Scam words', key: 'scam-words', words } })).status, 201);
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Wordlists' }).click();
    await page.getByRole('link', { name: 'Scam words' }).click();
    const matches = page.getByTestId('word-matches');
    await matches.getByText('1,500 of 1,500 words').waitFor();
    assert.equal(await page.getByRole('list', { name: 'Words' }).getByRole('listitem').count(), 100, 'one page, not the whole list');
    await page.getByLabel('Search words').fill('scam012');
    await matches.getByText('10 of 1,500 words contain “scam012”').waitFor();
    await page.getByLabel('Select scam0120').check();
    await page.getByLabel('Select scam0121').check();
    await page.getByRole('button', { name: 'Remove selected (2)' }).click();
    await matches.getByText('8 of 1,498 words contain “scam012”').waitFor();
    await page.getByLabel('CSV file').setInputFiles({ name: 'more.csv', mimeType: 'text/csv', buffer: Buffer.from('word\r\n"gift card, free"\r\nscam0001\r\n') });
    await page.getByText('2 words read, 1 new').waitFor();
    const stored = (await d.test.request('GET', '/v1/wordlist/scam-words')).body.words as string[];
    assert.equal(stored.length, 1499);
    assert.ok(stored.includes('gift card, free') && !stored.includes('scam0120'));
    assert.deepEqual(errors, []);
  });

  test('a moderator sees no Configure group and is refused the pages', async () => {
    const mod = await d.addUser('molly@example.com', 'moderator');
    const page = await d.signedIn(mod.email);
    await page.getByRole('link', { name: 'Review queues' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Channels & policies' }).count(), 0);
    await page.goto(`${d.test.url}/configure/channels/default`);
    await page.getByRole('heading', { name: 'You do not have access to channel configuration' }).waitFor();
    await page.goto(`${d.test.url}/configure/playground`);
    await page.getByRole('heading', { name: 'You do not have access to the playground' }).waitFor();
  });
});
