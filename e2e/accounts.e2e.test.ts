import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, limits, messages } from '@filerunner/protocol';
import {
  activate,
  addMember,
  apiLogin,
  assertWebAppBuilt,
  inviteMember,
  launchBrowser,
  prepareSite,
  readMails,
  runAdmin,
  startServer,
  waitForMailLink,
  type ApiSession,
  type Member,
  type RunningServer,
  type Site,
} from './harness';
import { field, freshPage, location, logIn, PNG, see } from './pages';

// Accounts from invitation to reset. The operator CLI creates a contract and invites its project
// admin by mail; the admin activates from that mail here, and each test then follows one person
// in the browser: the admin, or an account of its own that the admin added, so no test needs
// what another one did.
const ADMIN = 'ada@acme.test';
const ADMIN_PASSWORD = 'First-Pass1!';
const NEW_PASSWORD = 'Second-Pass2@';
const RESET_PASSWORD = 'Third-Pass3#';

let site: Site;
let server: RunningServer;
let browser: Browser;
let admin: ApiSession;
let slug: string;

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
  const invitation = await waitForMailLink(site, ADMIN, '/activate/');
  await activate(invitation, 'Ada Lovelace', ADMIN_PASSWORD);
  admin = await apiLogin(server.url, ADMIN, ADMIN_PASSWORD);
  const [acme] = await admin.call(api.contracts.list);
  slug = acme!.slug;
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A member of Acme Studios of the test's own, logged in on a fresh page. */
async function signedInMember(prefix: string): Promise<{ member: Member; page: Page }> {
  const member = await addMember(site, admin, slug, { prefix });
  const page = await freshPage(browser);
  await logIn(page, server.url, member.email, member.password);
  return { member, page };
}

/** Picks a small PNG as the avatar on the Profile tab and saves the form. */
async function saveAvatar(page: Page): Promise<void> {
  await page.locator('input[type=file][name=avatar]').setInputFiles({
    name: 'me.png',
    mimeType: 'image/png',
    buffer: PNG,
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await see(page, 'Profile updated successfully');
}

describe('an account', () => {
  it('activates from the mailed link, which then stops working', async () => {
    const invited = await inviteMember(site, admin, slug, { prefix: 'grace' });
    expect(invited.link.startsWith(`${server.url}/activate/`)).toBe(true);

    const page = await freshPage(browser);
    await page.goto(invited.link);
    const email = field(page, 'Email');
    await expect.poll(() => email.inputValue()).toBe(invited.email);
    await expect.poll(() => email.getAttribute('readonly')).not.toBeNull();
    await expect.poll(() => field(page, 'Name').inputValue()).toBe(invited.name);

    await field(page, 'Name').fill('');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Name is required');
    await see(page, 'Password is required');
    await see(page, 'Password Confirmation is required');

    await field(page, 'Name').fill(invited.name);
    await field(page, 'Password').fill(invited.password);
    await field(page, 'Confirm password').fill('Something-else1!');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Passwords do not match');

    await field(page, 'Confirm password').fill(invited.password);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/login?message=ACCOUNT_ACTIVATED');
    await see(page, 'Your account has been activated. Please log in.');

    await page.goto(invited.link);
    await see(page, 'Sorry that token is invalid.');
  });

  it('logs the project admin in, with the single project in the top bar', async () => {
    const page = await freshPage(browser);
    await logIn(page, server.url, ADMIN, ADMIN_PASSWORD);
    expect(location(page)).toBe('/inbox');
    await see(page, "You haven't received any packages yet...");
    await expect.poll(() => page.getByTestId('current-project').textContent()).toBe('Acme Studios');
    for (const screen of ['Share', 'Inbox', 'Sent', 'Activity', 'Users', 'Settings']) {
      await page.getByRole('link', { name: screen, exact: true }).waitFor();
    }
  });

  it('edits the profile', async () => {
    const { page } = await signedInMember('profile');
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
    await saveAvatar(page);

    await page.reload();
    await expect.poll(() => field(page, 'First name').inputValue()).toBe('Augusta');
    await expect.poll(() => field(page, 'Last name').inputValue()).toBe('King');
    await expect
      .poll(() => page.getByRole('combobox', { name: 'Timezone' }).inputValue())
      .toBe('Europe/London');
    await expect
      .poll(async () => (await mobile.inputValue()).replace(/\D/g, ''))
      .toBe('12015550123');
    await page.getByRole('button', { name: 'Remove avatar' }).waitFor();
  });

  it('rejects an avatar over 1 MB before sending it', async () => {
    const { page } = await signedInMember('bigavatar');
    await page.goto(`${server.url}/profile`);
    await field(page, 'First name').waitFor();
    await page.locator('input[type=file][name=avatar]').setInputFiles({
      name: 'big.png',
      mimeType: 'image/png',
      buffer: Buffer.alloc(1_000_001),
    });
    await see(page, 'File size cannot exceed more than 1 MB');
  });

  it('removes an avatar it saved', async () => {
    const { page } = await signedInMember('avatar');
    await page.goto(`${server.url}/profile`);
    await field(page, 'First name').waitFor();
    await saveAvatar(page);
    await page.reload();

    await page.getByRole('button', { name: 'Remove avatar' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Profile updated successfully');
    await page.reload();
    await field(page, 'First name').waitFor();
    await expect.poll(() => page.getByRole('button', { name: 'Remove avatar' }).count()).toBe(0);
  });

  it('saves a user setting', async () => {
    const { page } = await signedInMember('settings');
    await page.goto(`${server.url}/profile/user-settings`);
    const storageSwitch = page.getByRole('switch', { name: 'Show storage location selection' });
    await expect.poll(() => storageSwitch.isChecked()).toBe(false);
    const saved = page.waitForResponse('**/api/user/update_settings/');
    await storageSwitch.click();
    expect((await saved).status()).toBe(200);
    await page.reload();
    await expect.poll(() => storageSwitch.isChecked()).toBe(true);
  });

  it('creates an API key that works until it is revoked', async () => {
    const { member, page } = await signedInMember('apikey');
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
    expect(((await before.json()) as { email: string }).email).toBe(member.email);

    const row = page.getByTestId('api-key-row').filter({ hasText: 'build robot' });
    await row.getByText('Valid').waitFor();
    await row.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
    await row.getByText('Revoked').waitFor();

    expect((await withKey()).status).toBe(401);
  });

  it('says to revoke a key when the person holds as many as they may', async () => {
    const { page } = await signedInMember('apikeycap');
    await page.goto(`${server.url}/profile/api-keys`);
    // The keys a script made, up to the cap, through the page's own session.
    for (let i = 0; i < limits.apiKeysLiveMax; i++) {
      const made = await page.evaluate(async (name) => {
        const response = await fetch('/api/api_keys/', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-client-version': 'e2e' },
          body: JSON.stringify({ name }),
        });
        return response.status;
      }, `script ${i}`);
      expect(made).toBe(201);
    }
    await page.getByRole('button', { name: 'Create API Key' }).click();
    await field(page, 'Name').fill('one more');
    await page.getByRole('button', { name: 'Create', exact: true }).click();
    await see(page, messages.apiKeys.tooMany);
  });

  it('changes the password and is logged out', async () => {
    const { member, page } = await signedInMember('password');
    await page.goto(`${server.url}/profile/update-password`);
    await field(page, 'Current password').fill(member.password);
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'Confirm new password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Update Password' }).click();
    await page.waitForURL('**/login?message=PASSWORD_UPDATED');
    await see(page, 'Password updated successfully');

    await page.goto(`${server.url}/inbox`);
    await page.waitForURL('**/login?next=%2Finbox');

    await field(page, 'Email').fill(member.email);
    await field(page, 'Password').fill(member.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(
      page,
      'Sorry we could not log you in, please check you are using the correct email and password.',
    );
    await field(page, 'Password').fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/inbox');
  });

  it('resets a forgotten password from the mailed link', async () => {
    const member = await addMember(site, admin, slug, { prefix: 'forgetful' });
    const page = await freshPage(browser);
    const mailsBefore = (await readMails(site)).length;
    await page.goto(`${server.url}/forgotpassword`);
    await field(page, 'Email').fill(member.email);
    await page.getByRole('button', { name: 'Send Reset Password Link' }).click();
    await see(page, 'Email Sent');
    await page.getByRole('link', { name: 'Back to login' }).waitFor();

    const resetLink = await waitForMailLink(site, member.email, '/resetpassword/', mailsBefore);
    await page.goto(resetLink);
    await field(page, 'New password').fill(RESET_PASSWORD);
    await field(page, 'Confirm password').fill(RESET_PASSWORD);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL('**/login?message=LOGIN_RESET');

    await logIn(page, server.url, member.email, RESET_PASSWORD);
    expect(location(page)).toBe('/inbox');

    await page.goto(resetLink);
    await see(page, 'Sorry that token in invalid. Please try again.');
    await page.getByRole('link', { name: 'Request another reset link' }).click();
    await page.waitForURL('**/forgotpassword');
  });

  it('says so when a reset link lacks its token', async () => {
    const page = await freshPage(browser);
    await page.goto(`${server.url}/resetpassword/abc`);
    await see(page, 'Invalid URL');
  });
});
