import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page } from 'playwright-core';
import { startDashboard, watchErrors, type Dashboard } from './harness.ts';
import { UNICODE_SIGNALS } from '../../src/core/unicode/types.ts';

// The spam policy flags it; on its own severity only sends it to review.
const SPAM = 'Congratulations! You won a free iPhone, claim your prize now at http://prize.example';

describe('browser: the recommendation rule builder', () => {
  let d: Dashboard;
  before(async () => {
    d = await startDashboard();
    // A new author (trust level 0) and a member (level 2): only the first is inside the rule.
    for (const [externalId, level] of [['newbie', null], ['member', 2]] as const) {
      const r = await d.test.request('POST', '/v1/authors', { body: { external_id: externalId, ...(level === null ? {} : { manual_trust_level: level }) } });
      assert.equal(r.status, 200, JSON.stringify(r.body));
    }
  });
  after(() => d.close());

  const moderate = async (authorId: string) => (await d.test.request('POST', '/v1/moderate', { body: { content: { type: 'text', text: SPAM }, authorId, doNotStore: true } })).body;

  async function openDefaultChannel(page: Page) {
    await page.getByRole('link', { name: 'Channels & policies' }).click();
    await page.getByRole('link', { name: 'Default' }).click();
    await page.getByRole('button', { name: 'Add a rule' }).waitFor();
  }

  async function playground(page: Page, authorId: string) {
    await page.getByRole('link', { name: 'Playground', exact: true }).click();
    await page.getByLabel('Author (optional)').fill(authorId);
    await page.getByLabel('Text to test').fill(SPAM);
    await page.getByRole('button', { name: 'Run' }).click();
    const verdict = page.getByTestId('verdict');
    await verdict.waitFor();
    return verdict;
  }

  /** The rule's conditions as its JSON view shows them; back to the form after. */
  async function whenOf(rule: Locator) {
    await rule.getByRole('button', { name: 'JSON', exact: true }).click();
    const when = JSON.parse(await rule.getByRole('textbox', { name: /conditions \(JSON\)/ }).inputValue());
    await rule.getByRole('button', { name: 'Form', exact: true }).click();
    return when;
  }

  test('"spam flagged and trust level at most 0 → reject" built with the form: saved, shown again after a reload, applied by /v1/moderate, the playground and dry run', async () => {
    assert.deepEqual((await moderate('newbie')).recommendation, { action: 'review', reason_codes: ['severity_review'] }, 'before: severity decides');

    const dev = await d.addUser('tess@example.com', 'developer');
    const page = await d.signedIn(dev.email);
    const errors = watchErrors(page);
    await openDefaultChannel(page);

    await page.getByRole('button', { name: 'Add a rule' }).click();
    const rule = page.getByTestId('rule').first();
    await rule.getByLabel('Rule 1 name').fill('Spam from new authors');
    await rule.getByLabel('Rule 1 action').selectOption('reject');
    // A new rule starts with one policy condition, flagged; the policy is chosen from the channel's.
    const policies = rule.locator('[data-condition="policies"]');
    await policies.getByLabel('Policy', { exact: true }).selectOption('spam');
    assert.equal(await policies.getByLabel('Flagged', { exact: true }).inputValue(), 'true');
    // Trust levels are chosen by name, from the catalog.
    await rule.getByLabel('Add a condition to rule 1').selectOption({ label: 'Trust level' });
    const trust = rule.locator('[data-condition="trustLevel"]');
    assert.deepEqual(await trust.getByLabel('At most').locator('option').allTextContents(), ['no maximum', '-1 · Untrusted', '0 · New', '1 · Basic', '2 · Member', '3 · Regular', '4 · Trusted']);
    await trust.getByLabel('At most').selectOption({ label: '0 · New' });

    // The JSON view holds the same rule; back in the form nothing is lost.
    await rule.getByRole('button', { name: 'JSON', exact: true }).click();
    assert.deepEqual(JSON.parse(await rule.getByLabel('Rule 1 conditions (JSON)').inputValue()), { policies: [{ id: 'spam', flagged: true }], trustLevel: { max: 0 } });
    await rule.getByRole('button', { name: 'Form', exact: true }).click();
    assert.equal(await policies.getByLabel('Policy', { exact: true }).inputValue(), 'spam');
    assert.equal(await trust.getByLabel('At most').inputValue(), '0');

    // A label is chosen from the labels of the chosen policy, as the catalog lists them.
    await rule.getByLabel('Add a condition to rule 1').selectOption({ label: 'Labels' });
    const labels = rule.locator('[data-condition="labels"]');
    await labels.getByLabel('Policy', { exact: true }).selectOption('unicode_spoofing');
    assert.deepEqual((await labels.getByLabel('Label', { exact: true }).locator('option').allTextContents()).sort(), [...UNICODE_SIGNALS].sort());
    await labels.getByLabel('Label', { exact: true }).selectOption('zalgo');
    assert.deepEqual((await whenOf(rule)).labels, [{ policy: 'unicode_spoofing', label: 'zalgo' }]);
    await rule.getByLabel('Remove condition Labels from rule 1').click();

    // A condition left empty: the server's issue is shown beside it, and nothing is saved.
    await rule.getByLabel('Add a condition to rule 1').selectOption({ label: 'Languages' });
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    const languageIssues = rule.locator('[data-condition="languages"]').getByTestId('condition-issues');
    await languageIssues.waitFor();
    assert.match((await languageIssues.textContent())!, /fewer than 1 items/);
    assert.deepEqual((await d.test.request('GET', '/v1/channels/default')).body.rules, []);
    // Languages are typed freely.
    await rule.locator('[data-condition="languages"]').getByLabel('Languages, separated by commas').fill('en, fr');
    assert.deepEqual((await whenOf(rule)).languages, ['en', 'fr']);
    assert.equal(await rule.locator('[data-condition="languages"]').getByLabel('Languages, separated by commas').inputValue(), 'en, fr');
    await rule.getByLabel('Remove condition Languages from rule 1').click();

    await page.getByRole('button', { name: 'Save changes' }).first().click();
    const saved = page.getByTestId('saved-changes');
    await saved.waitFor();
    assert.match((await saved.textContent())!, /\/rules\/0/);
    const expected = { name: 'Spam from new authors', when: { policies: [{ id: 'spam', flagged: true }], trustLevel: { max: 0 } }, action: 'reject' };
    assert.deepEqual((await d.test.request('GET', '/v1/channels/default')).body.rules, [expected]);

    // After a reload the form shows the stored rule.
    await page.reload();
    const again = page.getByTestId('rule').first();
    await again.waitFor();
    assert.equal(await again.getByLabel('Rule 1 name').inputValue(), 'Spam from new authors');
    assert.equal(await again.getByLabel('Rule 1 action').inputValue(), 'reject');
    assert.equal(await again.locator('[data-condition="policies"]').getByLabel('Policy', { exact: true }).inputValue(), 'spam');
    assert.equal(await again.locator('[data-condition="trustLevel"]').getByLabel('At most').inputValue(), '0');
    assert.equal(await again.locator('[data-condition="trustLevel"]').getByLabel('At least').inputValue(), '');

    // The rule decides for the new author only.
    assert.deepEqual((await moderate('newbie')).recommendation, { action: 'reject', reason_codes: ['rule_match'] });
    assert.ok(!(await moderate('member')).recommendation.reason_codes.includes('rule_match'));
    let verdict = await playground(page, 'newbie');
    await verdict.getByText('reject', { exact: true }).waitFor();
    const reasons = await page.getByRole('list', { name: 'Reason codes' }).locator('li').allTextContents();
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, /rule_match$/);

    // Dry run: callers are answered allow, the playground still shows the rule's verdict.
    await openDefaultChannel(page);
    await page.getByLabel('Dry run').check();
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.getByTestId('saved-changes').waitFor();
    assert.deepEqual((await moderate('newbie')).recommendation, { action: 'allow', reason_codes: ['dry_run'] });
    verdict = await playground(page, 'newbie');
    const note = verdict.getByRole('note');
    await note.waitFor();
    assert.match((await note.textContent())!, /real verdict, reject \(rule_match\)/);
    assert.deepEqual(errors, []);
  });
});
