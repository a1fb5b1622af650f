import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createQueue, startDashboard, submit, watchErrors, type Dashboard } from './harness.ts';
import { copyItemAt } from '../support/seed-history.ts';

const DAY = 86_400_000;

describe('browser: overview charts', () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
  });
  after(() => d.close());

  test('the charts draw the seeded history: one bar per day with the seeded counts, heights in proportion', async () => {
    // Today through the API; earlier days as copies of those items dated in the past.
    await submit(d.test, [
      { contentId: 'toxic-today', text: 'you are a worthless idiot and a moron', authorId: 'au-1' },
      { contentId: 'clean-today', text: 'thanks, see you at the meetup on friday', authorId: 'au-2' },
    ]);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const seed: Record<number, { toxic: number; clean: number }> = {
      [today - 3 * DAY]: { toxic: 2, clean: 5 },
      [today - 2 * DAY]: { toxic: 0, clean: 1 },
      [today - 1 * DAY]: { toxic: 4, clean: 8 },
    };
    for (const [day, { toxic, clean }] of Object.entries(seed)) {
      const at = (i: number) => Number(day) + 3_600_000 * 9 + i * 60_000;
      await copyItemAt(d.test.server.db, d.test.projectId, 'toxic-today', Array.from({ length: toxic }, (_, i) => ({ externalId: `t-${day}-${i}`, at: at(i) })));
      await copyItemAt(d.test.server.db, d.test.projectId, 'clean-today', Array.from({ length: clean }, (_, i) => ({ externalId: `c-${day}-${i}`, at: at(i) })));
    }
    const flaggedToday = (await d.test.server.db.query<{ n: number }>("SELECT count(*)::int AS n FROM content_items WHERE project_id = $1 AND external_id = 'toxic-today' AND flagged", [d.test.projectId])).rows[0]!.n;
    assert.equal(flaggedToday, 1, 'the toxic template is flagged');
    const expected = new Map<number, { submissions: number; flagged: number }>([[today, { submissions: 2, flagged: 1 }]]);
    for (const [day, s] of Object.entries(seed)) expected.set(Number(day), { submissions: s.toxic + s.clean, flagged: s.toxic });

    const page = await d.signedIn(d.test.admin.email, d.test.admin.password);
    const errors = watchErrors(page);
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const chart = page.getByTestId('chart-submissions');
    await chart.locator('rect.chart-bar[data-series="submissions"]:not([data-value="0"])').first().waitFor();
    const total = [...expected.values()].reduce((sum, v) => sum + v.submissions, 0);
    await page.getByTestId('overview-totals').getByText(String(total), { exact: true }).first().waitFor();

    const bars = await chart.locator('rect.chart-bar').evaluateAll((rects) =>
      rects.map((r) => ({ series: r.getAttribute('data-series'), key: Number(r.getAttribute('data-key')), value: Number(r.getAttribute('data-value')), height: Number(r.getAttribute('height')) })),
    );
    const drawn = (series: string) => new Map(bars.filter((b) => b.series === series && b.value > 0).map((b) => [b.key, b]));
    const submissions = drawn('submissions');
    assert.deepEqual(
      [...submissions.entries()].map(([k, b]) => [k, b.value]).sort((a, b) => a[0]! - b[0]!),
      [...expected.entries()].map(([k, v]) => [k, v.submissions]).sort((a, b) => a[0]! - b[0]!),
    );
    assert.deepEqual(
      [...drawn('flagged').entries()].map(([k, b]) => [k, b.value]).sort((a, b) => a[0]! - b[0]!),
      [...expected.entries()].filter(([, v]) => v.flagged > 0).map(([k, v]) => [k, v.flagged]).sort((a, b) => a[0]! - b[0]!),
    );
    // Drawn to scale: every bar's height per item is the same (within a pixel of rounding).
    const perItem = [...submissions.values()].map((b) => b.height / b.value);
    for (const ratio of perItem) assert.ok(Math.abs(ratio - perItem[0]!) * 12 < 1.5, `bar heights in proportion: ${perItem.join(', ')}`);
    assert.ok(Math.max(...[...submissions.values()].map((b) => b.height)) > 50, 'bars are visible');

    // Verdicts: each day's stacked segments add up to its submissions.
    const verdictBars = await page.getByTestId('chart-verdicts').locator('rect.chart-bar').evaluateAll((rects) => rects.map((r) => ({ key: Number(r.getAttribute('data-key')), value: Number(r.getAttribute('data-value')) })));
    const perDay = new Map<number, number>();
    for (const b of verdictBars) perDay.set(b.key, (perDay.get(b.key) ?? 0) + b.value);
    for (const [day, v] of expected) assert.equal(perDay.get(day), v.submissions, `verdicts of ${new Date(day).toISOString()}`);

    // The flagged-share lines have a point per day with submissions (a gap where there were none).
    const line = page.getByTestId('chart-policies').locator('.recharts-line path.recharts-curve').first();
    await line.waitFor();
    const curve = (await line.getAttribute('d')) ?? '';
    assert.equal(curve.split('M').length - 1, 1, 'one unbroken run: the seeded days are consecutive');
    assert.equal(curve.split(/[LC]/).length, expected.size, `a point for each of the ${expected.size} days with submissions: ${curve}`);
    // Authors by trust level: the two authors.
    const trust = await page.getByTestId('chart-trust').locator('rect.chart-bar').evaluateAll((rects) => rects.reduce((s, r) => s + Number(r.getAttribute('data-value')), 0));
    assert.equal(trust, 2);

    // Queues: "Open now" is the background count, "counting…" until there is one. Another node
    // holding the count's lease keeps this one from counting, so the queue stays uncounted until it is given up.
    await d.test.server.db.query(
      `INSERT INTO job_leases (name, holder, expires_at) VALUES ('queue_counts', 'another-node', $1)
       ON CONFLICT (name) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at`,
      [Date.now() + 3_600_000],
    );
    const queueId = await createQueue(d.test, 'Flagged items', { flagged: 'FLAGGED', showShadowFlagged: false });
    await page.reload();
    const queueRow = page.getByRole('table', { name: 'Queue backlog' }).getByRole('row').filter({ hasText: 'Flagged items' });
    await queueRow.getByText('counting…').waitFor();
    assert.equal(await queueRow.getByTestId('queue-open').getAttribute('data-open'), '');
    await d.test.server.db.query("DELETE FROM job_leases WHERE name = 'queue_counts'");
    // The page looks again after 2, 4, 8 s… while a queue is counting; the job takes the lease within 5 s.
    await queueRow.getByText(/counted .* ago|counted now/).waitFor({ timeout: 40_000 });
    const openFlagged = (await d.test.server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM content_items WHERE project_id = $1 AND flagged', [d.test.projectId])).rows[0]!.n;
    assert.equal(openFlagged, 7, 'one flagged item today, six copied');
    assert.equal(await queueRow.getByTestId('queue-open').getAttribute('data-open'), String(openFlagged));
    await queueRow.getByText(String(openFlagged), { exact: true }).waitFor();
    assert.ok(queueId);

    // A channel with nothing in it draws no bar.
    const channel = await d.test.request('POST', '/v1/channels', { body: { key: 'empty', name: 'Empty channel' } });
    assert.ok(channel.status < 300, JSON.stringify(channel.body));
    await page.reload();
    await page.getByLabel('Channel').selectOption({ label: 'Empty channel (empty)' });
    await page.getByTestId('overview-totals').getByText('Submissions').waitFor();
    const values = () => page.getByTestId('chart-submissions').locator('rect.chart-bar').evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('data-value'))));
    for (let i = 0; i < 200 && (await values()).some((v) => v !== 0); i++) await new Promise((r) => setTimeout(r, 50));
    assert.deepEqual([...new Set(await values())], [0]);
    assert.deepEqual(errors, []);
  });
});
