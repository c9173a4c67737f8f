import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  assertWebAppBuilt,
  launchBrowser,
  prepareSite,
  readMails,
  runAdmin,
  startServer,
  waitForMailLink,
  type RunningServer,
  type Site,
} from './harness';
import { field, freshPage, location, logIn, PNG, see } from './pages';

// One person's account from invitation to reset: a contract created by the operator CLI invites
// its project admin by mail, and everything after that happens in the browser.
const ADMIN = 'ada@acme.test';
const FIRST_PASSWORD = 'First-Pass1!';
const SECOND_PASSWORD = 'Second-Pass2@';
const THIRD_PASSWORD = 'Third-Pass3#';

let site: Site;
let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  assertWebAppBuilt();
  site = await prepareSite({ SEED_DEMO: 'false' });
  await runAdmin(site, [
    'create-contract',
    '--name',
    'Acme Studios',
    '--admin-email',
    ADMIN,
    '--admin-first-name',
    'Ada',
    '--admin-last-name',
    'Lovelace',
  ]);
  server = await startServer(site);
  browser = await launchBrowser();
  page = await freshPage(browser);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('an invited project admin', () => {
  let activationLink: string;

  it('activates the account from the mailed link', async () => {
    activationLink = await waitForMailLink(site, ADMIN, '/activate/');
    expect(activationLink.startsWith(`${server.url}/activate/`)).toBe(true);

    await page.goto(activationLink);
    const email = field(page, 'Email');
    await email.waitFor();
    expect(await email.inputValue()).toBe(ADMIN);
    expect(await email.getAttribute('readonly')).not.toBeNull();
    expect(await field(page, 'Name').inputValue()).toBe('Ada Lovelace');

    await field(page, 'Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Name is required');
    await see(page, 'Password is required');
    await see(page, 'Password Confirmation is required');

    await field(page, 'Name').fill('Ada Lovelace');
    await field(page, 'Password').fill(FIRST_PASSWORD);
    await field(page, 'Confirm password').fill('Something-else1!');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Passwords do not match');

    await field(page, 'Confirm password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/login?message=ACCOUNT_ACTIVATED');
    await see(page, 'Your account has been activated. Please log in.');
  });

  it('cannot use the activation link twice', async () => {
    await page.goto(activationLink);
    await see(page, 'Sorry that token is invalid.');
  });

  it('logs in and sees the single project in the top bar', async () => {
    await logIn(page, server.url, ADMIN, FIRST_PASSWORD);
    expect(location(page)).toBe('/inbox');
    await see(page, "You haven't received any packages yet...");
    expect(await page.getByTestId('current-project').textContent()).toBe('Acme Studios');
    for (const screen of ['Share', 'Inbox', 'Sent', 'Activity', 'Users', 'Settings']) {
      await page.getByRole('link', { name: screen, exact: true }).waitFor();
    }
  });

  it('edits the profile', async () => {
    await page.goto(`${server.url}/profile`);
    await field(page, 'First name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'First Name is required');

    await field(page, 'First name').fill('Augusta');
    await field(page, 'Last name').fill('King');
    // Typed key by key: the phone input formats as the person types.
    const mobile = page.getByRole('textbox', { name: 'Mobile' });
    await mobile.fill('');
    await mobile.pressSequentially('+12015550123');
    await page.getByRole('combobox', { name: 'Timezone' }).fill('Europe/Lond');
    await page.getByRole('option', { name: 'Europe/London' }).click();
    await page.locator('input[type=file][name=avatar]').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Profile updated successfully');

    await page.reload();
    await field(page, 'First name').waitFor();
    expect(await field(page, 'First name').inputValue()).toBe('Augusta');
    expect(await field(page, 'Last name').inputValue()).toBe('King');
    expect(await page.getByRole('combobox', { name: 'Timezone' }).inputValue()).toBe(
      'Europe/London',
    );
    expect((await mobile.inputValue()).replace(/\D/g, '')).toBe('12015550123');
    await page.getByRole('button', { name: 'Remove avatar' }).waitFor();
  });

  it('rejects an avatar over 1 MB before sending it', async () => {
    await page.locator('input[type=file][name=avatar]').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1_000_001),
    });
    await see(page, 'File size cannot exceed more than 1 MB');
  });

  it('removes the avatar again', async () => {
    await page.getByRole('button', { name: 'Remove avatar' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Profile updated successfully');
    await page.reload();
    await field(page, 'First name').waitFor();
    expect(await page.getByRole('button', { name: 'Remove avatar' }).count()).toBe(0);
  });

  it('saves a user setting', async () => {
    await page.goto(`${server.url}/profile/user-settings`);
    const storageSwitch = page.getByRole('switch', { name: 'Show storage location selection' });
    expect(await storageSwitch.isChecked()).toBe(false);
    const saved = page.waitForResponse('**/api/user/update_settings/');
    await storageSwitch.click();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await storageSwitch.waitFor();
    expect(await storageSwitch.isChecked()).toBe(true);
  });

  it('creates an API key that works until it is revoked', async () => {
    await page.goto(`${server.url}/profile/api-keys`);
    await page.getByRole('button', { name: 'Create API Key' }).click();
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await see(page, 'This field is required.');
    await field(page, 'Name').fill('build robot');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    const key = await page.getByTestId('new-api-key').inputValue();
    expect(key.length).toBeGreaterThan(20);
    await see(page, 'It will not be shown again');
    await page.getByRole('button', { name: 'Done' }).click();

    const withKey = () =>
      fetch(`${server.url}/api/user/`, { headers: { Authorization: `Api-Key ${key}` } });
    const before = await withKey();
    expect(before.status).toBe(200);
    expect(((await before.json()) as { email: string }).email).toBe(ADMIN);

    const row = page.getByTestId('api-key-row').filter({ hasText: 'build robot' });
    await row.getByText('Valid').waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();

    expect((await withKey()).status).toBe(401);
  });

  it('changes the password and is logged out', async () => {
    await page.goto(`${server.url}/profile/update-password`);
    await field(page, 'Current password').fill(FIRST_PASSWORD);
    await field(page, 'New password').fill(SECOND_PASSWORD);
    await field(page, 'Confirm new password').fill(SECOND_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.waitForURL('**/login?message=PASSWORD_UPDATED');
    await see(page, 'Password updated successfully');

    await page.goto(`${server.url}/inbox`);
    await page.waitForURL('**/login?next=%2Finbox');

    await field(page, 'Email').fill(ADMIN);
    await field(page, 'Password').fill(FIRST_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(
      page,
      'Sorry we could not log you in, please check you are using the correct email and password.',
    );
    await field(page, 'Password').fill(SECOND_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/inbox');
  });

  it('resets a forgotten password from the mailed link', async () => {
    await page.context().clearCookies();
    const mailsBefore = (await readMails(site)).length;
    await page.goto(`${server.url}/forgotpassword`);
    await field(page, 'Email').fill(ADMIN);
    await page.getByRole('button', { name: 'Send Reset Password Link' }).click();
    await see(page, 'Email Sent');
    await page.getByRole('link', { name: 'Back to login' }).waitFor();

    const resetLink = await waitForMailLink(site, ADMIN, '/resetpassword/', mailsBefore);
    await page.goto(resetLink);
    await field(page, 'New password').fill(THIRD_PASSWORD);
    await field(page, 'Confirm password').fill(THIRD_PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/login?message=LOGIN_RESET');

    await logIn(page, server.url, ADMIN, THIRD_PASSWORD);
    expect(location(page)).toBe('/inbox');

    await page.goto(resetLink);
    await see(page, 'Sorry that token in invalid. Please try again.');
    await page.getByRole('link', { name: 'Request another reset link' }).click();
    await page.waitForURL('**/forgotpassword');
  });

  it('says so when a reset link lacks its token', async () => {
    await page.goto(`${server.url}/resetpassword/abc`);
    await see(page, 'Invalid URL');
  });
});
