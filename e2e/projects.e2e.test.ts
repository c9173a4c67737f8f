import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api } from '@filerunner/protocol';
import {
  apiLogin,
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

  const activation = await freshPage(browser);
  await activation.goto(await waitForMailLink(site, USER, '/activate/'));
  await field(activation, 'Name').fill('Morgan Many');
  await field(activation, 'Password').fill(PASSWORD);
  await field(activation, 'Confirm password').fill(PASSWORD);
  await activation.getByRole('button', { name: 'Save' }).click();
  await activation.waitForURL('**/login?message=ACCOUNT_ACTIVATED');
  await activation.context().close();
});

// Each test logs in on a fresh browser context, where no project choice is remembered yet.
beforeEach(async () => {
  page = await freshPage(browser);
  await logIn(page, server.url, USER, PASSWORD);
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const strip = () => page.getByRole('navigation', { name: 'Projects' });
const currentProject = () => page.getByTestId('current-project').textContent();
const projectButton = (name: string) => strip().getByRole('button', { name });

describe('the project selector', () => {
  it('shows every project as an avatar named by its tooltip, and switches on click', async () => {
    for (const name of PROJECTS) await projectButton(name).waitFor();
    await expect.poll(currentProject).toBe(PROJECTS[0]);

    await projectButton('Gamma Post').hover();
    await page.getByRole('tooltip', { name: 'Gamma Post' }).waitFor();
    await projectButton('Gamma Post').click();
    await expect.poll(currentProject).toBe('Gamma Post');

    // The choice is remembered on this browser.
    await page.reload();
    await projectButton('Gamma Post').waitFor();
    await expect.poll(currentProject).toBe('Gamma Post');
  });

  it('collapses to the current project and a +N dropdown with a search', async () => {
    await page.setViewportSize({ width: 1200, height: 900 });
    const more = strip().getByRole('button', { name: '5 other projects' });
    await more.waitFor();
    await expect.poll(async () => (await more.innerText()).trim()).toBe('+5');
    await projectButton(PROJECTS[0]!).waitFor();
    await expect.poll(() => projectButton(PROJECTS[1]!).count()).toBe(0);

    await more.click();
    const search = page.getByPlaceholder('Search');
    await search.fill('zzz');
    await see(page, 'No results found');
    await search.fill('delta');
    await page.getByRole('option', { name: 'Delta Sound' }).click();
    await expect.poll(currentProject).toBe('Delta Sound');
    await projectButton('Delta Sound').waitFor();
  });
});

describe('a branded project', () => {
  it('goes by its branding name in the strip and the top bar', async () => {
    const admin = await apiLogin(server.url, USER, PASSWORD);
    const contracts = await admin.call(api.contracts.list);
    const epsilon = contracts.find((c) => c.name === 'Epsilon VFX')!;
    await admin.call(api.branding.update, {
      params: { contract: epsilon.slug },
      body: { name: 'Acme Audit Studios' },
    });

    await page.reload();
    await projectButton('Acme Audit Studios').click();
    await expect.poll(currentProject).toBe('Acme Audit Studios');
    await expect.poll(() => projectButton('Epsilon VFX').count()).toBe(0);
  });
});
