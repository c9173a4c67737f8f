import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** A text input by its visible label, as a person finds it. */
export const field = (page: Page, name: string) => page.getByRole('textbox', { name, exact: true });

/** Waits until `text` is on the page (playwright-core has no assertion library of its own). */
export async function see(page: Page, text: string | RegExp): Promise<void> {
  await page.getByText(text).first().waitFor({ state: 'visible' });
}

/** The path and query of the page's address, e.g. '/login?next=%2Fprofile'. */
export function location(page: Page): string {
  const url = new URL(page.url());
  return url.pathname + url.search;
}

/** Logs in through the login page and waits for the screen it leads to. */
export async function logIn(page: Page, baseUrl: string, email: string, password: string) {
  await page.goto(`${baseUrl}/login`);
  await field(page, 'Email').fill(email);
  await field(page, 'Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  // '/' is only a stop on the way to the inbox.
  await page.waitForURL((url) => url.pathname !== '/login' && url.pathname !== '/');
}

/**
 * On the Share screen, adds the folder the page's folder picker answers and sends it to Rita
 * Recipient as a package named `name`.
 */
export async function sendPickedFolder(page: Page, name: string): Promise<void> {
  await page.getByRole('button', { name: 'Add folder' }).click();
  await expect.poll(() => page.getByTestId('selected-file-count').innerText()).toMatch(/^\d/);
  await page.getByRole('combobox', { name: 'Recipients' }).fill('Rita');
  await page.getByRole('option', { name: /Rita Recipient/ }).click();
  await page.getByRole('textbox', { name: 'Package name' }).fill(name);
  await page.getByRole('button', { name: 'Send Package' }).click();
}

/** A fresh browser context (its own cookies and storage) with a page in it. */
export async function freshPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  // Long enough for a cold server answer, short enough that a missing element fails the test
  // well within the test's own timeout.
  context.setDefaultTimeout(15_000);
  return context.newPage();
}

/** A 1x1 transparent PNG, for avatar and logo uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/**
 * Whether a person can see and reach the element: the topmost thing at its centre is the element
 * itself or inside it, not something lying over it (a banner, a drawer).
 */
export async function uncovered(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
    return top !== null && element.contains(top);
  });
}
