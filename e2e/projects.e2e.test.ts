import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  assertWebAppBuilt,
  launchBrowser,
  prepareSite,
  runAdmin,
  startServer,
  waitForMailLink,
  type RunningServer,
} from './harness';
import { field, freshPage, logIn, see } from './pages';

// A user in six projects: the project strip, its '+N' dropdown and its search.
const USER = 'multi@example.test';
const PASSWORD = 'Many-Projects1!';
const PROJECTS = [
  'Alpha Films',
  'Beta Records',
  'Gamma Post',
  'Delta Sound',
  'Epsilon VFX',
  'Zeta Labs',
];

let server: RunningServer;
let browser: Browser;
let page: Page;

beforeAll(async () => {
  assertWebAppBuilt();
  const site = await prepareSite({ SEED_DEMO: 'false' });
  for (const name of PROJECTS) {
    await runAdmin(site, ['create-contract', '--name', name, '--admin-email', USER]);
  }
  server = await startServer(site);
  browser = await launchBrowser();
  page = await freshPage(browser);

  await page.goto(await waitForMailLink(site, USER, '/activate/'));
  await field(page, 'Name').fill('Morgan Many');
  await field(page, 'Password').fill(PASSWORD);
  await field(page, 'Confirm password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.waitForURL('**/login?message=ACCOUNT_ACTIVATED');
  await logIn(page, server.url, USER, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const strip = () => page.getByRole('navigation', { name: 'Projects' });
const currentProject = () => page.getByTestId('current-project').textContent();

describe('the project selector', () => {
  it('shows every project as an avatar named by its tooltip, and switches on click', async () => {
    for (const name of PROJECTS) await strip().getByRole('button', { name }).waitFor();
    expect(await currentProject()).toBe(PROJECTS[0]);

    await strip().getByRole('button', { name: 'Gamma Post' }).hover();
    await page.getByRole('tooltip', { name: 'Gamma Post' }).waitFor();
    await strip().getByRole('button', { name: 'Gamma Post' }).click();
    expect(await currentProject()).toBe('Gamma Post');

    // The choice is remembered on this browser.
    await page.reload();
    await strip().getByRole('button', { name: 'Gamma Post' }).waitFor();
    expect(await currentProject()).toBe('Gamma Post');
  });

  it('collapses to the current project and a +N dropdown with a search', async () => {
    await page.setViewportSize({ width: 1200, height: 900 });
    const more = strip().getByRole('button', { name: '5 other projects' });
    await more.waitFor();
    expect((await more.innerText()).trim()).toBe('+5');
    expect(await strip().getByRole('button', { name: 'Alpha Films' }).count()).toBe(0);

    await more.click();
    const search = page.getByPlaceholder('Search');
    await search.fill('zzz');
    await see(page, 'No results found');
    await search.fill('delta');
    await page.getByRole('option', { name: 'Delta Sound' }).click();
    expect(await currentProject()).toBe('Delta Sound');
    await strip().getByRole('button', { name: 'Delta Sound' }).waitFor();
  });
});
