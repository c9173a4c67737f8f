import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { DEMO_PASSWORD, productOfFile } from './harness';
import { expectKeyboardReachable, tabThrough } from './accessibility-checks';
import { PARTNER, sendGradeNotesAndPartnerLink } from './external-package';
import { folderToPick, freshPage, signedIn } from './pages';

// The product with the keyboard alone, in Chromium: Tab reaches every control of each main
// screen and each shows where the focus is; menus and dialogs open with Enter or Space, close
// with Escape and give the focus back; a package is sent from the Share screen without a mouse.

const SENDER = 'sender@example.com';
const RECIPIENT = 'recipient@example.com';
const ADMIN = 'admin@example.com';

const product = productOfFile();
let partnerLink: string;

beforeAll(async () => {
  partnerLink = await sendGradeNotesAndPartnerLink(product);
});

/** Whether `target` has the focus. */
const focused = (target: Locator) => target.evaluate((el) => el === document.activeElement);

/** Presses Tab until `target` has the focus; fails if it never gets it. */
async function tabTo(page: Page, target: Locator, maxPresses = 80): Promise<void> {
  for (let i = 0; i < maxPresses; i++) {
    await page.keyboard.press('Tab');
    if (await focused(target)) return;
  }
  throw new Error(`Tab never reached ${target.toString()}`);
}

/** Tabs through the page as it is and fails on a control Tab misses or whose focus is unseen. */
async function expectTabbable(page: Page, screen: string, within?: string): Promise<void> {
  expectKeyboardReachable(screen, await tabThrough(page, within));
}

/**
 * Opens what `opener` opens with `key`, checks `opened` is there and keeps the focus inside it,
 * closes it with Escape and checks the focus is back on `opener`.
 */
async function opensAndCloses(
  page: Page,
  opener: Locator,
  key: 'Enter' | ' ',
  opened: Locator,
): Promise<void> {
  await tabTo(page, opener);
  await page.keyboard.press(key);
  await opened.waitFor();
  await expect.poll(() => opened.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press('Escape');
  await opened.waitFor({ state: 'hidden' });
  await expect.poll(() => focused(opener)).toBe(true);
}

describe('the keyboard alone', () => {
  it('reaches every control of the main screens by Tab, each showing its focus', async () => {
    const login = await freshPage(product.browser);
    await login.goto(`${product.server.url}/login`);
    await login.getByRole('button', { name: 'Log in' }).waitFor();
    await expectTabbable(login, 'Login');
    await login.context().close();

    const sender = await signedIn(product, SENDER);
    const screens: [string, string, Locator][] = [
      [
        '/sent',
        'Sent',
        sender.getByRole('region', { name: 'Package details' }).getByRole('heading').first(),
      ],
      ['/share', 'Share', sender.getByRole('button', { name: 'Send Package' })],
      ['/profile', 'Profile', sender.getByRole('tab', { name: 'Profile', selected: true })],
      // Once its first round of calls is over: Refresh is disabled while it measures.
      [
        '/debug/latency',
        'Latency',
        sender.getByRole('button', { name: 'Refresh', disabled: false }),
      ],
    ];
    for (const [path, screen, ready] of screens) {
      await sender.goto(`${product.server.url}${path}`);
      await ready.waitFor({ timeout: 60_000 });
      await expectTabbable(sender, screen);
    }
    await sender.context().close();

    const recipient = await signedIn(product, RECIPIENT);
    await recipient
      .getByRole('region', { name: 'Package details' })
      .getByRole('heading', { name: 'Grade notes' })
      .waitFor();
    await expectTabbable(recipient, 'Inbox');
    await recipient.context().close();

    const admin = await signedIn(product, ADMIN);
    for (const [path, screen, ready] of [
      ['/users', 'Users', admin.getByRole('cell', { name: /sender@example.com/ }).first()],
      ['/users?tab=groups', 'Groups', admin.getByText('Partners').first()],
      ['/settings/demo/general', 'Settings', admin.getByRole('tab', { name: 'General' })],
      ['/activity', 'Activity', admin.getByText('Grade notes').first()],
    ] as const) {
      await admin.goto(`${product.server.url}${path}`);
      await ready.waitFor();
      await expectTabbable(admin, screen);
    }
    await admin.context().close();

    const outsider = await freshPage(product.browser);
    await outsider.goto(partnerLink);
    await outsider.getByRole('heading', { name: 'Grade for review' }).waitFor();
    await expectTabbable(outsider, 'External package page');
    await outsider.context().close();
  });

  it('opens menus and dialogs with Enter or Space, closes them with Escape, focus returning', async () => {
    const admin = await signedIn(product, ADMIN);
    await admin.goto(`${product.server.url}/users`);
    await admin
      .getByRole('cell', { name: /sender@example.com/ })
      .first()
      .waitFor();
    const addUser = admin.getByRole('dialog');
    await opensAndCloses(admin, admin.getByRole('button', { name: 'Add User' }), ' ', addUser);
    // Inside an open dialog, Tab stays in it and reaches each of its controls.
    await admin.getByRole('button', { name: 'Add User' }).press('Enter');
    await addUser.waitFor();
    await expectTabbable(admin, 'Add User dialog', '[role=dialog]');
    await admin.keyboard.press('Escape');
    await addUser.waitFor({ state: 'hidden' });

    const logOut = admin.getByRole('button', { name: 'Log out' });
    await opensAndCloses(admin, logOut, 'Enter', admin.getByRole('dialog', { name: 'Log out' }));

    // The recipients' suggestions: opened by the arrow key, closed by Escape, the field keeping
    // the focus.
    await admin.goto(`${product.server.url}/share`);
    const recipients = admin.getByRole('combobox', { name: 'Recipients' });
    await tabTo(admin, recipients);
    await admin.keyboard.press('ArrowDown');
    await admin.getByRole('listbox').waitFor();
    await admin.keyboard.press('Escape');
    await admin.getByRole('listbox').waitFor({ state: 'hidden' });
    expect(await focused(recipients)).toBe(true);

    // A toggle group is one Tab stop; the arrow keys move along it and Space presses.
    await admin.goto(`${product.server.url}/debug/latency`);
    const regions = admin.getByRole('button', { name: 'Regions' });
    const servers = admin.getByRole('button', { name: 'Servers' });
    await tabTo(admin, regions);
    await admin.keyboard.press('ArrowRight');
    expect(await focused(servers)).toBe(true);
    await admin.keyboard.press(' ');
    await expect.poll(() => servers.getAttribute('aria-pressed')).toBe('true');
    await admin.context().close();

    const outsider = await freshPage(product.browser);
    await outsider.goto(partnerLink);
    await outsider.getByRole('heading', { name: 'Grade for review' }).waitFor();
    const pinDialog = outsider.getByRole('dialog', { name: 'PIN verification' });
    await opensAndCloses(
      outsider,
      outsider.getByRole('button', { name: 'Unlock with PIN' }),
      'Enter',
      pinDialog,
    );
    await outsider.context().close();
  });

  it('fills in the Share screen and sends a package without a mouse', async () => {
    const page = await freshPage(product.browser);
    // The login too, by keyboard: the email field has the focus when the page opens.
    await page.goto(`${product.server.url}/login`);
    const email = page.getByRole('textbox', { name: 'Email', exact: true });
    await tabTo(page, email);
    await page.keyboard.type(SENDER);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/inbox');

    // To the Share screen by the sidebar.
    const share = page.getByRole('link', { name: 'Share', exact: true });
    await tabTo(page, share);
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/share');
    await page.getByRole('heading', { name: 'Share', level: 1 }).waitFor();

    await folderToPick(page, 'Stills', [
      { name: 'still_01.png', size: 12_000 },
      { name: 'still_02.png', size: 15_000 },
    ]);
    await tabTo(page, page.getByRole('button', { name: 'Add folder' }));
    await page.keyboard.press('Enter');
    await page
      .getByTestId('selected-file-count')
      .filter({ hasText: /^2 files/ })
      .waitFor();

    // A member by the suggestions, and an outside address typed in full.
    await tabTo(page, page.getByRole('combobox', { name: 'Recipients' }));
    await page.keyboard.type('Rita');
    await page.getByRole('option', { name: /Rita Recipient/ }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.keyboard.type(PARTNER);
    await page.getByRole('option', { name: `Add ${PARTNER}` }).waitFor();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');

    await tabTo(page, page.getByRole('textbox', { name: 'Package name' }));
    await page.keyboard.type('Stills for the poster');
    await tabTo(page, page.getByRole('textbox', { name: 'Message' }));
    await page.keyboard.type('Two picks from the shoot.');

    await tabTo(page, page.getByRole('button', { name: 'Send Package' }));
    await page.keyboard.press('Enter');
    await page
      .getByRole('dialog', { name: 'Upload queue' })
      .getByText('Your package has been sent. The recipients have been emailed.')
      .waitFor({ timeout: 60_000 });

    // The queue, open by itself, closes with Escape; its ring opens it again with Enter.
    await page.keyboard.press('Escape');
    const queue = page.getByRole('dialog', { name: 'Upload queue' });
    await queue.waitFor({ state: 'hidden' });
    await opensAndCloses(
      page,
      page.getByRole('button', { name: /^Upload queue:/ }),
      'Enter',
      queue,
    );

    // What was sent is what was typed: the package as the sender's Sent screen shows it.
    await page.goto(`${product.server.url}/sent`);
    await page
      .getByRole('link', { name: /Stills for the poster/ })
      .first()
      .click();
    const detail = page.getByRole('region', { name: 'Package details' });
    await detail.getByRole('heading', { name: 'Stills for the poster' }).waitFor();
    await detail.getByText('Two picks from the shoot.').waitFor();
    await detail.getByText(PARTNER).first().waitFor();
    await detail
      .getByText(/Rita Recipient|recipient@example.com/)
      .first()
      .waitFor();
    await page.context().close();
  });
});
