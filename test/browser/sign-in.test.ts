import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { signIn, startDashboard, watchErrors, type Dashboard } from './harness.ts';

describe('browser: first-run sign-in', () => {
  let d: Dashboard;
  before(async () => {
    // No BOOTSTRAP_ADMIN_PASSWORD: the first start generates a one-time password, as `npm start` does.
    d = await startDashboard({ BOOTSTRAP_ADMIN_EMAIL: 'first-admin@example.com', BOOTSTRAP_ADMIN_PASSWORD: '' });
  });
  after(() => d.close());

  test('the first admin signs in with the printed one-time password, must choose a password, then works', async () => {
    const admin = d.test.server.bootstrappedAdmin;
    assert.ok(admin?.oneTimePassword, 'the first start created an admin with a one-time password');
    const context = await d.newContext();
    const page = await context.newPage();
    const errors = watchErrors(page);

    await page.goto(`${d.test.url}/`);
    await page.waitForURL(/\/sign-in/);
    await page.getByLabel('Email').fill(admin.email);
    await page.getByLabel('Password', { exact: true }).fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: /wrong email or password/i }).waitFor();

    await page.getByLabel('Password', { exact: true }).fill(admin.oneTimePassword);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    // Every other page waits until the password is chosen.
    await page.goto(`${d.test.url}/authors`);
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();

    await page.getByLabel('One-time password').fill(admin.oneTimePassword);
    await page.getByLabel('New password', { exact: true }).fill('a brand new passphrase');
    await page.getByLabel('Repeat the new password').fill('a brand new passphrase');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.getByRole('heading', { name: 'Review queues' }).waitFor();
    await page.getByText(admin.email).waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/sign-in/);
    // The one-time password is spent; the chosen one works.
    await signIn(page, d.test.url, admin.email, admin.oneTimePassword);
    await page.getByRole('alert').waitFor();
    await signIn(page, d.test.url, admin.email, 'a brand new passphrase');
    await page.getByRole('heading', { name: 'Review queues' }).waitFor();
    assert.deepEqual(errors, []);
  });

  test('a deep link survives sign-in', async () => {
    const user = await d.addUser('deeplink@example.com', 'moderator');
    const context = await d.newContext();
    const page = await context.newPage();
    await page.goto(`${d.test.url}/audit`);
    await page.waitForURL(/\/sign-in\?next=%2Faudit/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
  });
});
