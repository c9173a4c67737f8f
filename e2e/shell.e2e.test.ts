import { describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import { addMember, apiLogin, DEMO_PASSWORD, productOfFile } from './harness';
import { field, freshPage, location, logIn, see, signedIn } from './pages';

// The shell around the screens, with the demo contract's admin, sender and receive-only users.

const product = productOfFile();

/**
 * Clicks the help link named `name` inside `within` and answers the tab it opens, once that
 * shows the product's help page: every help link leads there unless HELP_URL names another.
 */
async function expectHelpPage(within: Page | Locator, name: string): Promise<Page> {
  const page = 'context' in within ? within : within.page();
  const [help] = await Promise.all([
    page.context().waitForEvent('page'),
    within.getByRole('link', { name, exact: true }).click(),
  ]);
  await help.waitForURL('**/help');
  await help.getByRole('heading', { name: 'FileRunner Help', level: 1 }).waitFor();
  return help;
}

const sidebarLinks = async (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link').allInnerTexts();

describe('the shell', () => {
  it('sends a signed-out visitor to log in, and back afterwards', async () => {
    const page = await freshPage(product.browser);
    await page.goto(`${product.server.url}/profile`);
    await page.waitForURL('**/login?next=%2Fprofile');
    expect(location(page)).toBe('/login?next=%2Fprofile');

    await field(page, 'Email').fill('admin@example.com');
    await field(page, 'Password').fill('wrong-Password1!');
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(
      page,
      'Sorry we could not log you in, please check you are using the correct email and password.',
    );

    await field(page, 'Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/profile');
    await see(page, 'My Account');
  });

  it('opens /login from a link with the form alone, then the app in the same page', async () => {
    const page = await freshPage(product.browser);
    let scriptBytes = 0;
    const scripts: string[] = [];
    page.on('requestfinished', (request) => {
      if (request.resourceType() !== 'script') return;
      scripts.push(new URL(request.url()).pathname);
      void request.sizes().then(({ responseBodySize }) => (scriptBytes += responseBodySize));
    });
    await page.goto(`${product.server.url}/login?next=%2Fsent`);
    await field(page, 'Email').waitFor();
    await page.waitForLoadState('networkidle');
    // The sign-in form's scripts only, as the server sends them (compressed): a link opened on a
    // slow line shows the form sooner.
    expect(scripts.length).toBeGreaterThan(0);
    expect(scriptBytes).toBeLessThanOrEqual(120_000);

    // The page stays the same page: the app loads into it, without a reload.
    await page.evaluate(() => Object.assign(window, { loginPageMark: true }));
    await field(page, 'Email').fill('sender@example.com');
    await field(page, 'Password').fill(DEMO_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL('**/sent');
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    expect(await page.evaluate(() => 'loginPageMark' in window)).toBe(true);
    expect(scriptBytes).toBeGreaterThan(120_000);
  });

  it('shows a receive-only user only what they may use', async () => {
    const page = await signedIn(product, 'recipient@example.com');
    expect(location(page)).toBe('/inbox');
    await see(page, "You haven't received any packages yet...");
    await page.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    for (const hidden of ['Share', 'Activity', 'Users', 'Settings']) {
      await expect.poll(() => sidebarLinks(page)).not.toContain(hidden);
    }

    for (const path of ['/users', '/activity', '/settings', '/share', '/branding/users']) {
      await page.goto(`${product.server.url}${path}`);
      await page.waitForURL((url) => url.pathname.endsWith('/inbox'));
      expect(location(page)).toBe(path.startsWith('/branding') ? '/branding/inbox' : '/inbox');
    }
  });

  it('gives the project admin every screen, also under /branding', async () => {
    const page = await signedIn(product, 'admin@example.com');
    await page.getByRole('link', { name: 'Settings', exact: true }).waitFor();
    await expect
      .poll(() => sidebarLinks(page))
      .toEqual(expect.arrayContaining(['Share', 'Inbox', 'Sent', 'Activity', 'Users', 'Settings']));
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.waitForURL('**/users');
    await page.getByRole('tab', { name: 'User List' }).waitFor();

    await page.goto(`${product.server.url}/branding`);
    await page.waitForURL('**/branding/inbox');
    await page.getByRole('link', { name: 'Sent', exact: true }).click();
    await page.waitForURL('**/branding/sent');
    await see(page, "You haven't sent any packages yet...");
  });

  it('lets a sender share but not administer', async () => {
    const page = await signedIn(product, 'sender@example.com');
    await page.getByRole('link', { name: 'Share', exact: true }).click();
    await page.waitForURL('**/share');
    await page.getByRole('link', { name: 'Inbox', exact: true }).waitFor();
    await expect.poll(() => sidebarLinks(page)).not.toContain('Users');
  });

  it('lists the permissions of each project on the profile', async () => {
    const page = await signedIn(product, 'sender@example.com');
    await page.goto(`${product.server.url}/profile/permissions`);
    const row = page.getByRole('row').filter({ hasText: 'Demo Contract' });
    await row.getByText('Send & Receive').waitFor();
  });

  it('asks before logging out, then forgets the session', async () => {
    const page = await signedIn(product, 'sender@example.com');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('dialog').getByText('Are you sure you want to log out?').waitFor();
    // The app leaves for /login at once and ends the session in the background; wait for that.
    const loggedOut = page.waitForResponse((r) => r.url().endsWith('/api/logout/'));
    await page.getByRole('dialog').getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    expect((await loggedOut).status()).toBe(204);

    await page.goto(`${product.server.url}/sent`);
    await page.waitForURL('**/login?next=%2Fsent');
  });

  it('warns before the session ends, extends it on click, and logs out when it ends', async () => {
    const page = await freshPage(product.browser);
    // The page's clock is under the test's control; the server keeps real time.
    await page.clock.install();
    await logIn(page, product.server.url, 'sender@example.com', DEMO_PASSWORD);
    // Every answer restates the session's end against the server's Date, so one that lands after
    // the jump below (the Inbox loads its code and lists on first view) would start the count again.
    await page.waitForLoadState('networkidle');
    const warning = page.getByRole('button', { name: /You will be logged out in \d+ seconds/ });
    expect(await warning.count()).toBe(0);

    // Sessions last 8 hours by default: jump to 10 minutes before the end. An answer that still
    // lands after the jump (the realtime connection, timed out by the jump, reconnects and the
    // page reads its lists again) restates the end and takes the warning away: jump again then.
    let text = '';
    for (let jump = 0; jump < 3 && !text; jump++) {
      await page.clock.fastForward('07:50:00');
      await warning.waitFor();
      text = (await warning.textContent({ timeout: 2000 }).catch(() => null)) ?? '';
    }
    const seconds = Number(/in (\d+) seconds/.exec(text)?.[1]);
    expect(seconds).toBeGreaterThan(500);
    expect(seconds).toBeLessThanOrEqual(600);
    expect(text).toContain('click to extend your session.');

    const extended = page.waitForResponse('**/api/session/extend/');
    await warning.click();
    expect((await extended).status()).toBe(204);
    await warning.waitFor({ state: 'detached' });

    await page.clock.fastForward('08:00:05');
    await page.waitForURL('**/login');
    expect(location(page)).toBe('/login');
  });

  it('shows a banner while offline', async () => {
    const page = await signedIn(product, 'sender@example.com');
    await page.context().setOffline(true);
    await see(page, 'You are currently offline');
    await page.context().setOffline(false);
    await page.getByText('You are currently offline').waitFor({ state: 'detached' });
  });

  it('has a not-found page and an error page', async () => {
    const page = await freshPage(product.browser);
    await page.goto(`${product.server.url}/no/such/page`);
    await see(page, "Sorry! We couldn't find that page");
    await page.goto(`${product.server.url}/error`);
    await see(page, "Sorry! This page isn't working");
    await page.getByRole('link', { name: 'Launch Help Center' }).waitFor();
    await expectHelpPage(page, 'Launch Help Center');
  });

  it("opens the product's help from the sidebar, in a tab of its own", async () => {
    const page = await signedIn(product, 'sender@example.com');
    const help = await expectHelpPage(page.getByRole('navigation', { name: 'Main' }), 'Help');
    // It explains, with the product's own numbers, what a person asks about first.
    for (const topic of [
      'Sending a package',
      'Receiving a package',
      'PIN verification',
      'Expiry',
      'Supported browsers',
    ]) {
      await help.getByRole('heading', { name: topic, level: 2 }).waitFor();
    }
    await see(help, 'A PIN works for 10 minutes');
    await see(help, 'it can last at most 15 days');
    await see(help, 'Google Chrome, Microsoft Edge and Mozilla Firefox');
  });

  it('collapses the sidebar to icons below 1280 px', async () => {
    const page = await signedIn(product, 'admin@example.com');
    await page.setViewportSize({ width: 1200, height: 800 });
    const inbox = page.getByRole('link', { name: 'Inbox', exact: true });
    await inbox.waitFor();
    // The drawer narrows after the resize is observed; the label goes with it.
    await expect.poll(async () => (await inbox.innerText()).trim()).toBe('');
    await page.setViewportSize({ width: 1400, height: 800 });
    await page.getByRole('navigation', { name: 'Main' }).getByText('Inbox').waitFor();
  });

  it('shows No Active Projects to a user whose only contract membership was disabled', async () => {
    // The admin adds a person of this test's own and disables them through the API, as the
    // Users screen would.
    const admin = await apiLogin(product.server.url, 'admin@example.com', DEMO_PASSWORD);
    const member = await addMember(product.site, admin, 'demo', { prefix: 'disabled' });
    await admin.call(api.users.updatePermissions, {
      params: { slug: 'demo', userId: member.id },
      body: { id: member.id, send: false, admin: false, enabled: false },
    });

    // Not logIn(): with no project the app stays on '/' rather than moving on to the inbox.
    const page = await freshPage(product.browser);
    await page.goto(`${product.server.url}/login`);
    await field(page, 'Email').fill(member.email);
    await field(page, 'Password').fill(member.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await see(page, "You don't have any active projects");
    await expectHelpPage(page, 'Need Help?');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
  });
});
