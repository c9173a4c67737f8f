import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  addMember,
  apiLogin,
  DEMO_PASSWORD,
  readMails,
  runAdmin,
  startProduct,
  stopProduct,
  waitForMail,
  waitForMailLink,
  type ApiSession,
  type RunningServer,
  type Site,
} from './harness';
import { field, freshPage, logIn, PNG, see } from './pages';

// The demo contract's project admin at work: users and groups, settings, branding, activity.
// Each test opens the screen it works on; a person a test changes is one it added itself.
const NEW_USER = 'nora.new@example.test';
const NEW_PASSWORD = 'Nora-Pass1!';
const EXTERNAL_USER = 'partner@external.test';

let site: Site;
let server: RunningServer;
let browser: Browser;
let page: Page;
/** The demo admin through the API, for adding the people a test needs. */
let admin: ApiSession;

beforeAll(async () => {
  ({ site, server, browser } = await startProduct());
  page = await freshPage(browser);
  await logIn(page, server.url, 'admin@example.com', DEMO_PASSWORD);
  admin = await apiLogin(server.url, 'admin@example.com', DEMO_PASSWORD);
});

afterAll(() => stopProduct({ server, browser }));

const userRow = (email: string) => page.getByTestId('user-row').filter({ hasText: email });
const dialog = () => page.getByRole('dialog');
const group = (name: string) => page.getByRole('region', { name, exact: true });

/** A group of the demo contract by name, as the API lists it. */
async function groupId(name: string): Promise<number> {
  const { groups } = await admin.call(api.groups.list, { params: { slug: 'demo' } });
  return groups.find((g) => g.name === name)!.id;
}

async function openUsers(tab: 'users' | 'groups' = 'users') {
  await page.goto(`${server.url}/users${tab === 'groups' ? '?tab=groups' : ''}`);
  if (tab === 'users') await userRow('admin@example.com').waitFor();
  else await group('Master group').waitFor();
}

/** Picks `option` in an MUI Autocomplete by typing part of it. */
async function pick(combobox: Locator, typed: string, option: string | RegExp) {
  await combobox.click();
  await combobox.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

describe('the Users screen', () => {
  it('lists the users with permission labels, groups and counts', async () => {
    await openUsers();
    await userRow('sender@example.com').getByText('Send & Receive').waitFor();
    await userRow('recipient@example.com').getByText('Receive Only').waitFor();
    await userRow('sender@example.com').getByText('Partners').waitFor();
    await expect.poll(() => page.getByTestId('enabled-count').innerText()).toBe('3 Enabled');
    await expect.poll(() => page.getByTestId('disabled-count').innerText()).toBe('0 Disabled');
  });

  it('filters only once the search is longer than 2 characters', async () => {
    await openUsers();
    const rows = await page.getByTestId('user-row').count();
    const search = page.getByRole('textbox', { name: 'Search users' });
    await search.fill('sa');
    await expect.poll(() => page.getByTestId('user-row').count()).toBe(rows);
    await search.fill('SAM');
    await expect
      .poll(() => page.getByTestId('user-row').allInnerTexts())
      .toEqual([expect.stringContaining('sender@example.com')]);
    await search.fill('rita@');
    await see(page, 'No users match "rita@".');
    await search.fill('');
    await expect.poll(() => page.getByTestId('user-row').count()).toBe(rows);
  });

  it('adds a user, whose activation mail arrives and who activates the account', async () => {
    await openUsers();
    const mailsBefore = (await readMails(site)).length;
    await page.getByRole('button', { name: 'Add User' }).click();
    await dialog().getByRole('button', { name: 'Add User' }).click();
    await expect.poll(() => dialog().getByText('This field is required.').count()).toBe(3);

    await field(page, 'First name').fill('Nora');
    await field(page, 'Last name').fill('New');
    await field(page, 'Email').fill(NEW_USER);
    await pick(dialog().getByRole('combobox', { name: 'Groups' }), 'Des', 'Design');
    await dialog().getByRole('button', { name: 'Add User' }).click();
    await see(page, `Nora New was added to the project and told by email at ${NEW_USER}.`);
    await userRow(NEW_USER).getByText('Pending').waitFor();
    await userRow(NEW_USER).getByText('Design').waitFor();
    await userRow(NEW_USER).getByText('Receive Only').waitFor();

    const link = await waitForMailLink(site, NEW_USER, '/activate/', mailsBefore);
    const newcomer = await freshPage(browser);
    await newcomer.goto(link);
    await expect.poll(() => field(newcomer, 'Name').inputValue()).toBe('Nora New');
    await field(newcomer, 'Password').fill(NEW_PASSWORD);
    await field(newcomer, 'Confirm password').fill(NEW_PASSWORD);
    await newcomer.getByRole('button', { name: 'Save' }).click();
    await newcomer.waitForURL('**/login?message=ACCOUNT_ACTIVATED');
    await logIn(newcomer, server.url, NEW_USER, NEW_PASSWORD);
    await see(newcomer, "You haven't received any packages yet...");
    await newcomer.context().close();

    await page.reload();
    await userRow(NEW_USER).getByText('Design').waitFor();
    await expect.poll(() => userRow(NEW_USER).innerText()).not.toContain('Pending');
  });

  it('puts a user in a group from the Groups List', async () => {
    const member = await addMember(site, admin, 'demo', {
      prefix: 'gus',
      groups: [await groupId('Design')],
    });
    await openUsers('groups');
    const first = member.name.split(' ')[0]!;
    await pick(group('Partners').getByRole('combobox', { name: 'Add members' }), first, first);
    await group('Partners').getByRole('button', { name: 'Add', exact: true }).click();
    await see(page, 'Group Partners updated');

    await page.reload();
    await group('Partners').getByText(member.email).waitFor();
    await group('Design').getByText(member.email).waitFor();
    await page.getByRole('tab', { name: 'User List' }).click();
    await userRow(member.email).getByText('Partners').waitFor();
  });

  it('creates a group, which needs a name, and shows +N past 2 groups', async () => {
    await openUsers('groups');
    await page.getByRole('button', { name: 'Create Group' }).click();
    await dialog().getByRole('button', { name: 'Create Group' }).click();
    await see(page, 'Group name is required');
    await field(page, 'Group name').fill('Reviewers');
    await field(page, 'Description').fill('Second opinions');
    await pick(dialog().getByRole('combobox', { name: 'Members' }), 'Sam', /Sam Sender/);
    await dialog().getByRole('button', { name: 'Create Group' }).click();
    await see(page, 'Group created');
    await group('Reviewers').getByText('sender@example.com').waitFor();

    await page.getByRole('tab', { name: 'User List' }).click();
    const sender = userRow('sender@example.com');
    await sender.getByText('+1').waitFor();
    await expect
      .poll(() => sender.locator('.MuiChip-root').allInnerTexts())
      .toEqual(['Design', 'Partners', '+1']);

    await page.getByRole('tab', { name: 'Groups List' }).click();
    await page.getByRole('button', { name: 'Delete group Reviewers' }).click();
    await dialog().getByRole('button', { name: 'Delete' }).click();
    await group('Reviewers').waitFor({ state: 'detached' });
  });

  it('edits permissions in edit mode, asking before it drops changes', async () => {
    const { email } = await addMember(site, admin, 'demo', { prefix: 'eddie' });
    await openUsers();
    await userRow(email).getByText('Receive Only').waitFor();
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('checkbox', { name: `Send permission of ${email}` }).check();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await see(page, 'You have unsaved changes to users.');
    await dialog().getByRole('button', { name: 'Discard changes' }).click();
    await userRow(email).getByText('Receive Only').waitFor();

    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    await page.getByRole('checkbox', { name: `Send permission of ${email}` }).check();
    await page.getByRole('textbox', { name: `Name of ${email}` }).fill('Eddie Newton');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Users updated successfully');
    await page.reload();
    await userRow(email).getByText('Send & Receive').waitFor();
    await userRow(email).getByText('Eddie Newton').waitFor();
  });

  it('adds an external user and removes them again after confirmation', async () => {
    await openUsers();
    const enabled = page.getByTestId('enabled-count');
    const enabledBefore = await enabled.innerText();
    await page.getByRole('button', { name: 'Add External Users' }).click();
    await dialog().getByRole('button', { name: 'Add another' }).click();
    await expect.poll(() => dialog().getByTestId('external-user-row').count()).toBe(2);
    await dialog().getByRole('button', { name: 'Remove row 2' }).click();
    await field(page, 'Email').fill(EXTERNAL_USER);
    await dialog().getByRole('button', { name: 'Add External Users' }).click();
    await see(page, '1 external user added.');
    await userRow(EXTERNAL_USER).getByText('External', { exact: true }).waitFor();

    await page.getByRole('button', { name: `Remove ${EXTERNAL_USER}` }).click();
    await dialog().getByRole('button', { name: 'Remove' }).click();
    await userRow(EXTERNAL_USER).waitFor({ state: 'detached' });
    await expect.poll(() => enabled.innerText()).toBe(enabledBefore);
  });
});

describe('the Settings screen', () => {
  /** The General tab of the demo contract, once its form is on the page. */
  async function openSettings() {
    await page.goto(`${server.url}/settings/demo/general`);
    await page.getByRole('radio', { name: 'all users' }).waitFor({ state: 'attached' });
  }

  it('saves PIN verification and reads it back after a reload', async () => {
    await page.goto(`${server.url}/settings`);
    await page.waitForURL('**/settings/demo/general');
    await page.getByRole('radio', { name: 'all users' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Settings updated successfully');

    await page.reload();
    await expect.poll(() => page.getByRole('radio', { name: 'all users' }).isChecked()).toBe(true);
  });

  it('says what each PIN mode means in the words the Share screen uses', async () => {
    // Ends on none: the leave warning's test below changes the mode to adhoc.
    const meanings = {
      adhoc:
        'Senders choose for each package whether recipients without an activated account must enter a PIN sent by text message to their mobile before downloading.',
      none: 'PIN verification is off in this project: no package asks for a PIN, and senders cannot turn it on.',
    };
    for (const [mode, meaning] of Object.entries(meanings)) {
      await openSettings();
      await page.getByRole('radio', { name: mode, exact: true }).check();
      await see(page, meaning);
      await page.getByRole('button', { name: 'Save' }).click();
      await see(page, 'Settings updated successfully');

      await page.goto(`${server.url}/share`);
      const toggle = page.getByRole('switch', { name: 'PIN verification' });
      await expect.poll(() => toggle.isDisabled()).toBe(mode === 'none');
      await see(page, meaning);
    }
  });

  it('saves a switch at once', async () => {
    await openSettings();
    const adHoc = page.getByRole('switch', { name: 'Allow ad-hoc recipients' });
    await expect.poll(() => adHoc.isChecked()).toBe(false);
    await adHoc.check();
    await see(page, 'Settings updated successfully');
    await page.reload();
    await expect.poll(() => adHoc.isChecked()).toBe(true);
  });

  it('needs both fields of a notification row', async () => {
    await openSettings();
    await page.getByRole('button', { name: 'Add notification' }).click();
    await field(page, 'Name').fill('Operations');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Please fill out all notification fields');
    await field(page, 'Email').fill('ops@example.com');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Settings updated successfully');
    await page.reload();
    await expect.poll(() => field(page, 'Email').inputValue()).toBe('ops@example.com');
  });

  it('keeps the storage locations the admin adds and removes', async () => {
    await openSettings();
    const names = page.getByRole('textbox', { name: 'Location name', exact: true });
    const values = async () => Promise.all((await names.all()).map((n) => n.inputValue()));
    await page.getByRole('button', { name: 'Add storage location' }).click();
    await page.getByRole('button', { name: 'Add storage location' }).click();
    await names.nth(0).fill('Europe');
    await names.nth(1).fill(' europe ');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Storage location names must be different');
    await names.nth(1).fill('Americas');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Settings updated successfully');

    await page.reload();
    await expect.poll(async () => (await values()).sort()).toEqual(['Americas', 'Europe']);
    const [, kept] = await values();
    await page.getByRole('button', { name: 'Remove storage location 1' }).click();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Settings updated successfully');

    await page.reload();
    await expect.poll(values).toEqual([kept]);
  });

  it('warns before leaving with unsaved changes', async () => {
    await openSettings();
    await page.getByRole('radio', { name: 'adhoc' }).check();
    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    await see(page, 'You have unsaved changes.');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
    expect(new URL(page.url()).pathname).toBe('/settings/demo/general');

    await page.getByRole('link', { name: 'Inbox', exact: true }).click();
    await dialog().getByRole('button', { name: 'Leave without saving' }).click();
    await page.waitForURL('**/inbox');
  });

  it('sends an unknown tab to General', async () => {
    await page.goto(`${server.url}/settings/demo/nonsense`);
    await page.waitForURL('**/settings/demo/general');
  });

  it('refuses a logo that is not an image, and checks the alias', async () => {
    await page.goto(`${server.url}/settings/demo/custom-branding`);
    await expect.poll(() => field(page, 'Name').inputValue()).toBe('Demo Contract');
    await page.locator('input[type=file][name=logo]').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not an image'),
    });
    await see(page, "We couldn't upload your file. Please try again with a different one.");

    await field(page, 'Alias').fill('d');
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Alias must be 2 letters min');
    // Once shown, the error follows the typing: a corrected alias clears it without a Save.
    await field(page, 'Alias').fill('aas');
    await page.getByText('Alias must be 2 letters min').waitFor({ state: 'detached' });
    expect(await field(page, 'Alias').getAttribute('aria-invalid')).toBe('false');
    await field(page, 'Alias').fill('a');
    await see(page, 'Alias must be 2 letters min');
  });

  it('uploads a logo that the top bar and the /branding layout show', async () => {
    await page.goto(`${server.url}/settings/demo/custom-branding`);
    await expect.poll(() => field(page, 'Name').inputValue()).not.toBe('');
    await field(page, 'Name').fill('Demo Studio');
    await field(page, 'Alias').fill('dms');
    await expect.poll(() => field(page, 'Alias').inputValue()).toBe('DMS');
    await page.getByRole('button', { name: 'pink' }).click();
    await page.locator('input[type=file][name=logo]').setInputFiles({
      name: 'logo.png',
      mimeType: 'image/png',
      buffer: PNG,
    });
    await page.getByRole('img', { name: 'Logo preview' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    await see(page, 'Custom branding updated successfully');

    const topBarLogo = page.locator('header').getByRole('img', { name: 'Demo Studio logo' });
    await expect.poll(() => topBarLogo.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
    // As the form's help says, the top bar names the project by its branding.
    await expect.poll(() => page.getByTestId('current-project').textContent()).toBe('Demo Studio');

    await page.goto(`${server.url}/branding/inbox`);
    const mark = page.getByTestId('brand-mark');
    await mark.getByText('Demo Studio').waitFor();
    const sidebarLogo = mark.getByRole('img', { name: 'Demo Studio logo' });
    await expect.poll(() => sidebarLogo.getAttribute('src')).toMatch(/^data:image\/jpeg;base64,/);
  });

  it('drops the Custom Branding tab and the branding once the operator disables it', async () => {
    // The operator's command runs beside the running server, on its database.
    await runAdmin(site, ['disable-branding', '--slug', 'demo']);

    await page.goto(`${server.url}/settings/demo/custom-branding`);
    await page.waitForURL('**/settings/demo/general');
    await page.getByRole('tab', { name: 'General' }).waitFor();
    await expect.poll(() => page.getByRole('tab').count()).toBe(1);

    const brandings = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/projects/');
    await page.goto(`${server.url}/branding/inbox`);
    expect(await (await brandings).json()).toEqual([]);
    await page.getByTestId('brand-mark').getByText('Demo Contract').waitFor();
  });
});

describe('the Activity screen', () => {
  it('says plainly that nothing has been sent yet', async () => {
    await page.goto(`${server.url}/activity`);
    await see(page, 'No packages have been sent in this project yet.');
    await page.getByRole('textbox', { name: 'Search activity' }).fill('quarterly');
    await see(page, 'No packages match "quarterly".');
  });

  it('asks for both dates of a custom export', async () => {
    await page.goto(`${server.url}/activity`);
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    await dialog().getByRole('radio', { name: 'Custom range' }).check();
    await dialog().getByRole('button', { name: 'Export' }).click();
    await see(page, 'Please select a start and end date');
    await dialog().getByRole('button', { name: 'Cancel' }).click();
  });

  it('mails the last 7 days as a CSV report', async () => {
    await page.goto(`${server.url}/activity`);
    const mailsBefore = (await readMails(site)).length;
    await page.getByRole('button', { name: 'Export to CSV' }).click();
    await dialog().getByRole('radio', { name: 'Last 7 days' }).check();
    await dialog().getByRole('button', { name: 'Export' }).click();
    await see(page, 'Your report is being prepared and will be emailed to you.');
    await see(page, 'Reports can take up to 24 hours to arrive.');

    const mail = await waitForMail(
      site,
      (m) => m.to.includes('admin@example.com') && m.attachments.length > 0,
      mailsBefore,
    );
    const [csv] = mail.attachments;
    expect(csv?.filename).toMatch(/\.csv$/);
    expect(csv?.contentType).toBe('text/csv');
    expect(csv?.content.toString('utf8')).toMatch(/^Package,Sender/);
  });
});
