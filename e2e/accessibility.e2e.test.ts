import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { apiLogin, DEMO_PASSWORD, inviteMember, productOfFile } from './harness';
import { expectAccessible } from './accessibility-checks';
import { sendGradeNotesAndPartnerLink } from './external-package';
import { folderToPick, freshPage, see, signedIn } from './pages';
import { sendDemoPackage } from './sent-package';

// axe-core's WCAG 2.0/2.1 A and AA rules on every screen of the product in Chromium, signed out,
// as a recipient, a sender and an admin, and as an outsider on the external page: no serious or
// critical violation, with dialogs, tabs and the transfer panel open as a person opens them.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
const ADMIN = 'admin@example.com';

const product = productOfFile();
/** The mailed link of a package to an outsider with a PIN; an activation link of a new member. */
let partnerLink: string;
let activationLink: string;

beforeAll(async () => {
  const url = product.server.url;
  partnerLink = await sendGradeNotesAndPartnerLink(product);
  // A package in the sender's own inbox, so the sender has a download beside an upload.
  await sendDemoPackage(url, {
    sender: ADMIN,
    recipients: [SENDER],
    name: 'Cut list',
    message: 'The cut for Friday',
    files: [{ path: 'cut.txt', bytes: Buffer.from('Reel 1, 2 and 4.\n') }],
  });
  const admin = await apiLogin(url, ADMIN, DEMO_PASSWORD);
  ({ link: activationLink } = await inviteMember(product.site, admin, 'demo', { prefix: 'ally' }));
});

/** Opens `path` and waits for `heading` (a level-1 heading's name) before axe looks. */
async function visit(page: Page, path: string, heading: string | RegExp): Promise<void> {
  await page.goto(`${product.server.url}${path}`);
  await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
}

describe('accessibility of every screen (axe-core, WCAG 2.1 A and AA)', () => {
  it('the pages signed out: login, password reset, activation, help, not found', async () => {
    const page = await freshPage(product.browser);
    await page.goto(`${product.server.url}/login`);
    await page.getByRole('button', { name: 'Log in' }).waitFor();
    await expectAccessible(page, 'Login');

    // A refused login shows its message beside the form.
    await page.getByRole('textbox', { name: 'Email', exact: true }).fill(SENDER);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('alert').first().waitFor();
    await expectAccessible(page, 'Login, refused');

    await page.goto(`${product.server.url}/forgotpassword`);
    await page.getByRole('button', { name: /reset/i }).first().waitFor();
    await expectAccessible(page, 'Forgot password');

    await page.goto(activationLink);
    await page.getByRole('textbox', { name: /name/i }).first().waitFor();
    await expectAccessible(page, 'Activation');

    await page.goto(`${product.server.url}/help`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expectAccessible(page, 'Help');

    await page.goto(`${product.server.url}/no-such-screen`);
    await see(page, "Sorry! We couldn't find that page");
    await expectAccessible(page, 'Not found');
    await page.context().close();
  });

  it('the debug pages: the list, latency, the file-name tester and the download tool', async () => {
    const page = await signedIn(product, SENDER);
    await visit(page, '/debug', 'Diagnostics');
    await expectAccessible(page, '/debug');

    await visit(page, '/debug/latency', 'Latency');
    // Measured once the first round of calls is over.
    const refresh = page.getByRole('button', { name: 'Refresh' });
    await expect.poll(() => refresh.isEnabled(), { timeout: 60_000 }).toBe(true);
    await expectAccessible(page, '/debug/latency');

    await visit(page, '/debug/fs-access-check', /File-system/i);
    await expectAccessible(page, '/debug/fs-access-check');

    await page.goto(`${product.server.url}/debug/download`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expectAccessible(page, '/debug/download');
    await page.context().close();
  });

  it("the recipient's shell and Inbox, with a package open and its download in the panel", async () => {
    const page = await signedIn(product, RECIPIENT);
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Grade notes' }).waitFor();
    await detail.getByText('Grade/notes.txt').waitFor();
    await expectAccessible(page, 'Inbox with a package open');

    // The browser's own download (optimised download, on by default, turned off for it).
    await page.keyboard.press('Alt+Shift+P');
    await page.getByText('Optimised Download has been disabled').waitFor();
    await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download Grade/notes.txt' }).click(),
    ]);
    const ring = page.getByRole('button', { name: /^Download queue:/ });
    await ring.waitFor();
    await expectAccessible(page, 'Inbox with the transfer panel collapsed');
    await ring.click();
    await page.getByRole('dialog', { name: 'Download queue' }).waitFor();
    await expectAccessible(page, 'Transfer panel: downloads');
    await page.context().close();
  });

  it("the sender's Share, the upload queue beside a download, Sent and Profile", async () => {
    const page = await signedIn(product, SENDER);
    await visit(page, '/share', 'Share');
    await page.getByRole('button', { name: 'Send Package' }).waitFor();
    await expectAccessible(page, 'Share, empty');

    await folderToPick(page, 'Dailies', [
      { name: 'a.mov', size: 20_000 },
      { name: 'b.mov', size: 30_000 },
    ]);
    await page.getByRole('button', { name: 'Add folder' }).click();
    await page
      .getByTestId('selected-file-count')
      .filter({ hasText: /^2 files/ })
      .waitFor();
    await page.getByRole('combobox', { name: 'Recipients' }).fill('Rita');
    await page.getByRole('option', { name: /Rita Recipient/ }).waitFor();
    await expectAccessible(page, 'Share, recipient suggestions open');
    await page.getByRole('option', { name: /Rita Recipient/ }).click();
    await page.getByRole('textbox', { name: 'Package name' }).fill('Dailies');
    await expectAccessible(page, 'Share, filled');
    await page.getByRole('button', { name: 'Send Package' }).click();

    // The upload queue opens by itself over the screen.
    const uploads = page.getByRole('dialog', { name: 'Upload queue' });
    await uploads
      .getByText('Your package has been sent. The recipients have been emailed.')
      .waitFor({
        timeout: 60_000,
      });
    // A modal dialog named by its queue: screen readers hear what opened, and that the page
    // behind is out of reach until it closes.
    expect(await uploads.getAttribute('aria-modal')).toBe('true');
    await expectAccessible(page, 'Transfer panel: uploads');
    await page.getByRole('button', { name: 'Collapse the upload queue' }).click();
    await uploads.waitFor({ state: 'hidden' });

    // A download beside it: the panel shows the tabs UPLOADS and DOWNLOADS. (Within the app: a
    // reload would end the page's queue.)
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Cut list' }).waitFor();
    // The browser's own download (optimised download, on by default, turned off for it).
    await page.keyboard.press('Alt+Shift+P');
    await page.getByText('Optimised Download has been disabled').waitFor();
    await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download cut.txt' }).click(),
    ]);
    await page.getByRole('button', { name: /^Transfer queue:/ }).click();
    await page.getByRole('tab', { name: 'DOWNLOADS' }).click();
    await page.getByRole('tab', { name: 'DOWNLOADS', selected: true }).waitFor();
    await expectAccessible(page, 'Transfer panel: the downloads tab beside uploads');
    await page.getByRole('tab', { name: 'UPLOADS' }).click();
    await page.getByRole('tab', { name: 'UPLOADS', selected: true }).waitFor();
    await expectAccessible(page, 'Transfer panel: the uploads tab beside downloads');
    await page.keyboard.press('Escape');

    await page.goto(`${product.server.url}/sent`);
    await page
      .getByRole('region', { name: 'Package details' })
      .getByRole('heading', { name: /Dailies|Grade/ })
      .first()
      .waitFor();
    await expectAccessible(page, 'Sent with a package open');

    for (const [tab, name] of [
      ['', 'Profile'],
      ['/permissions', 'Permissions'],
      ['/update-password', 'Update Password'],
      ['/user-settings', 'User Settings'],
      ['/api-keys', 'API Keys'],
    ] as const) {
      await visit(page, `/profile${tab}`, 'My Account');
      await page.getByRole('tab', { name, selected: true }).waitFor();
      await expectAccessible(page, `Profile: ${name}`);
    }
    await page.context().close();
  });

  it("the admin's Users, Groups, Settings and Activity, with their dialogs", async () => {
    const page = await signedIn(product, ADMIN);
    await visit(page, '/users', 'Users');
    await page
      .getByRole('cell', { name: /sender@example.com/ })
      .first()
      .waitFor();
    await expectAccessible(page, 'Users: User List');
    await page.getByRole('button', { name: 'Add User' }).click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'Users: Add User dialog');
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'hidden' });

    await page.getByRole('tab', { name: 'Groups List' }).click();
    await page.getByText('Partners').first().waitFor();
    await expectAccessible(page, 'Users: Groups List');

    await visit(page, '/settings/demo/general', 'Settings');
    await page.getByRole('tab', { name: 'General', selected: true }).waitFor();
    await expectAccessible(page, 'Settings: General');
    const branding = page.getByRole('tab', { name: 'Custom Branding' });
    if (await branding.count()) {
      await branding.click();
      await page.getByRole('tab', { name: 'Custom Branding', selected: true }).waitFor();
      await expectAccessible(page, 'Settings: Custom Branding');
    }

    await visit(page, '/activity', 'Activity');
    await see(page, 'Grade notes');
    await expectAccessible(page, 'Activity');
    await page
      .getByRole('button', { name: /Export/ })
      .first()
      .click();
    await page.getByRole('dialog').waitFor();
    await expectAccessible(page, 'Activity: export dialog');
    await page.context().close();
  });

  it('the external page and its PIN dialog, as the outsider opens them', async () => {
    const page = await freshPage(product.browser);
    await page.goto(partnerLink);
    await page.getByRole('heading', { name: 'Grade for review' }).waitFor();
    await expectAccessible(page, 'External package page');

    await page.getByRole('button', { name: 'Unlock with PIN' }).click();
    const dialog = page.getByRole('dialog', { name: 'PIN verification' });
    await dialog.getByText(/ending in 123/).waitFor();
    await expectAccessible(page, 'PIN dialog');
    await dialog.getByRole('button', { name: 'Send PIN' }).click();
    await dialog.getByText(/We sent a PIN by text message/).waitFor();
    await expectAccessible(page, 'PIN dialog, code sent');
    await page.context().close();
  });
});
