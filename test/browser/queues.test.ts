import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpus, loadavg } from 'node:os';
import { createQueue, startDashboard, submit, watchErrors, type Dashboard } from './harness.ts';

// Callbacks given to page.evaluate and waitForFunction run in the browser; the project's type set
// has no DOM, so their globals are declared here, for this file only.
declare const document: any, getComputedStyle: any;

const RUDE = 'What the fuck is wrong with you';

describe('browser: review queues', () => {
  let d: Dashboard;
  let flagged: string;
  let bulk: string;
  let spoof: string;
  before(async () => {
    d = await startDashboard();
    await submit(d.test, [
      { contentId: 'kb-1', text: `${RUDE}, first`, authorId: 'ann', conversationId: 'work' },
      { contentId: 'kb-2', text: `${RUDE}, second`, authorId: 'ben', conversationId: 'work' },
      { contentId: 'kb-3', text: `${RUDE}, third`, authorId: 'ann', conversationId: 'work' },
      { contentId: 'kb-4', text: `${RUDE}, fourth`, authorId: 'cat', conversationId: 'work' },
    ]);
    flagged = await createQueue(d.test, 'Work queue', { conversationIds: ['work'] });
    const many = Array.from({ length: 200 }, (_, i) => ({ contentId: `bulk-${String(i).padStart(3, '0')}`, text: `Bulk message number ${i}`, conversationId: 'bulk' }));
    await submit(d.test, many);
    bulk = await createQueue(d.test, 'Bulk queue', { conversationIds: ['bulk'] });
    await submit(d.test, [{ contentId: 'spoof-1', text: 'Log in to your pаypal account now to claim free\u200Bmoney', authorId: 'spoofer', conversationId: 'spoof' }]);
    spoof = await createQueue(d.test, 'Spoofing', { conversationIds: ['spoof'] });
  });
  after(() => d.close());

  const itemsOf = async (queueId: string, query = '') => (await d.test.request('GET', `/v1/queue/${queueId}/items?pageSize=100${query}`)).body.items as { id: string; status: string; actions: { name: string; comment?: string; reviewer?: string }[] }[];

  test('a moderator works a queue with the keyboard and acts on an item; a second moderator sees the claim', async () => {
    const mod = await d.addUser('mia@example.com', 'moderator');
    const page = await d.signedIn(mod.email);
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Work queue' }).click();
    await page.getByRole('table', { name: 'Queue items' }).waitFor();
    // Newest first: kb-4 is current; j moves down, k back up.
    const current = page.locator('tr[aria-current="true"]');
    await assert.doesNotReject(current.filter({ hasText: 'fourth' }).waitFor());
    await page.keyboard.press('j');
    await current.filter({ hasText: 'third' }).waitFor();
    await page.keyboard.press('j');
    await page.keyboard.press('k');
    await current.filter({ hasText: 'third' }).waitFor();

    // r = Reject item: the dialog asks for one reason and says how many; Enter applies it.
    await page.keyboard.press('r');
    const dialog = page.getByRole('dialog', { name: 'Reject item' });
    await dialog.waitFor();
    assert.equal(await dialog.getByTestId('action-count').textContent(), '1 item');
    await page.keyboard.type('insulting');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('tr[data-item-id="kb-3"]').waitFor({ state: 'detached' });
    const rejected = (await itemsOf(flagged, '&includeResolved=true')).find((i) => i.id === 'kb-3')!;
    assert.equal(rejected.status, 'resolved');
    assert.deepEqual(rejected.actions.map((a) => [a.name, a.comment]), [['Reject item', 'insulting']]);

    // Enter opens the current item; its page claims it for this moderator.
    await current.waitFor();
    const openedId = await current.getAttribute('data-item-id');
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/items/${openedId}$`));
    await page.getByRole('heading', { name: 'Content' }).waitFor();

    const other = await d.addUser('otto@example.com', 'moderator');
    const otherPage = await d.signedIn(other.email);
    await otherPage.goto(`${d.test.url}/queues/${flagged}`);
    await otherPage.locator(`tr[data-item-id="${openedId}"]`).getByText('Being reviewed by mia').waitFor();
    await otherPage.goto(`${d.test.url}/queues/${flagged}/items/${openedId}`);
    await otherPage.getByTestId('claimed-by').filter({ hasText: /mia@example\.com/ }).waitFor();

    // a = Allow item from the item page; the page then moves on to the next item of the queue.
    await page.keyboard.press('a');
    await page.getByRole('dialog', { name: 'Allow item' }).waitFor();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => !url.pathname.endsWith(`/items/${openedId}`));
    const allowed = (await itemsOf(flagged, '&includeResolved=true')).find((i) => i.id === openedId)!;
    assert.equal(allowed.status, 'resolved');
    assert.equal(allowed.actions[0]!.name, 'Allow item');

    // Acting on an item someone already resolved says so.
    await otherPage.getByRole('button', { name: /Reject item/ }).click();
    await otherPage.getByRole('dialog', { name: 'Reject item' }).getByRole('button', { name: /Apply/ }).click();
    await otherPage.getByRole('dialog').getByRole('alert').filter({ hasText: /already resolved/i }).waitFor();

    // `?` lists the shortcuts of the page.
    await page.goto(`${d.test.url}/queues/${flagged}`);
    await page.getByRole('table', { name: 'Queue items' }).waitFor();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const text of ['Next item', 'Previous item', 'Reject item', 'Allow item', 'Block author', 'Temporarily block author']) await help.getByText(text, { exact: false }).first().waitFor();
    assert.deepEqual(errors, []);
  });

  test('a bulk action over 200 items: select all matching, one action, one reason, a confirmation with the count', async () => {
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await page.goto(`${d.test.url}/queues/${bulk}`);
    // From the start of the page load to 50 rendered rows: loading the app, the session, the queue
    // and its items, and rendering them.
    // The page notes the time itself when the rows are there (a later call would add the round trip).
    // (A function: the page's Content-Security-Policy refuses strings evaluated as code.)
    const loadedMs = (await (await page.waitForFunction(() => document.querySelectorAll('table[aria-label="Queue items"] tbody tr').length === 50 && performance.now())).jsonValue()) as number;
    const itemsAnswered = (await page.evaluate(`performance.getEntriesByType('resource').filter((e) => e.name.includes('/items?')).map((e) => [e.startTime, e.responseEnd])[0]`)) as [number, number];
    const renderAfterAnswerMs = loadedMs - itemsAnswered[1];
    // Re-sorting: fetching and rendering another 50 rows, timed in the page.
    // (A string, so the test runner's transform adds no helper the page lacks.)
    const renderMs = (await page.evaluate(`(async () => {
      const started = performance.now();
      window.history.replaceState(null, '', location.pathname + '?sortField=createdAt&sortDirection=asc');
      window.dispatchEvent(new PopStateEvent('popstate'));
      while (document.querySelector('tbody tr')?.getAttribute('data-item-id') !== 'bulk-000') await new Promise((r) => requestAnimationFrame(r));
      return performance.now() - started;
    })()`)) as number;
    console.log(`# a queue page of 50 items: ${Math.round(loadedMs)} ms from navigation to rendered rows (items asked at ${Math.round(itemsAnswered[0])} ms, answered in ${Math.round(itemsAnswered[1] - itemsAnswered[0])} ms, rendered ${Math.round(renderAfterAnswerMs)} ms after the answer); re-sorted page fetched and rendered in ${Math.round(renderMs)} ms; load average ${loadavg()[0]!.toFixed(1)} on ${cpus().length} cores`);
    // Wall-clock time means nothing on a machine running many times more work than it has cores
    // (this one is shared): the bound is checked when the load is at most twice the cores.
    if (loadavg()[0]! <= cpus().length * 2) assert.ok(renderAfterAnswerMs < 1000, `50 items rendered ${Math.round(renderAfterAnswerMs)} ms after their answer arrived`);
    else console.log('# render bound not checked: the machine is overloaded');
    assert.equal(await page.locator('tbody tr').count(), 50, 'a page shows 50 items');
    await page.getByLabel('Select every item on this page').check();
    await page.getByTestId('selected-count').filter({ hasText: '50 selected' }).waitFor();
    await page.getByRole('button', { name: /Select all matching/ }).click();
    await page.getByTestId('selected-count').filter({ hasText: '200 selected' }).waitFor();
    await page.getByLabel('Action for the selected items').selectOption({ label: 'Allow item' });
    const dialog = page.getByRole('dialog', { name: 'Allow item' });
    assert.equal(await dialog.getByTestId('action-count').textContent(), '200 items');
    await dialog.getByLabel(/Reason/).fill('bulk clean-up');
    await dialog.getByRole('button', { name: 'Apply to 200 items' }).click();
    await page.getByText('Allow item: applied to 200 items').waitFor();
    const resolved = await d.test.request('GET', `/v1/queue/${bulk}`);
    assert.equal(resolved.body.queue.unresolvedItemsCount, 0);
    assert.equal(resolved.body.queue.resolvedItemsCount, 200);
    const sample = (await itemsOf(bulk, '&includeResolved=true'))[0]!;
    assert.equal(sample.actions[0]!.comment, 'bulk clean-up');
  });

  test('a spoofed word is highlighted in the original text with its normalized form beside it', async () => {
    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    await page.goto(`${d.test.url}/queues/${spoof}/items/spoof-1`);
    const content = page.getByTestId('content-text');
    await content.waitFor();
    // The Cyrillic а of "pаypal" is marked as mixed script, with a text label after the word.
    const mixed = content.locator('mark[data-signal="mixed_script"]');
    assert.equal(await mixed.textContent(), '\u0430');
    await content.getByText('mixed', { exact: true }).waitFor();
    // The zero-width space is a visible chip inside an "invisible" mark.
    const invisible = content.locator('mark[data-signal="invisible"]');
    assert.equal(await invisible.locator('.cp-chip').textContent(), 'U+200B');
    // Beside it, each finding: original → normalized.
    const findings = page.getByTestId('finding');
    assert.equal(await findings.count(), 2);
    assert.equal(await findings.nth(0).getByTestId('finding-normalized').textContent(), 'paypal');
    assert.equal(await findings.nth(1).getByTestId('finding-normalized').textContent(), 'freemoney');
    await findings.nth(0).getByText('Mixed scripts').waitFor();
    await findings.nth(0).getByText('Scripts: Latin, Cyrillic').waitFor();
    const colour = await mixed.evaluate((el) => getComputedStyle(el).backgroundColor);
    const invisibleColour = await invisible.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.notEqual(colour, invisibleColour, 'each signal has its own colour');
  });
});
