import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { DEMO_PASSWORD, type Product } from './harness';

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

/** A fresh page of the product's browser, logged in as `email`, on the screen the login leads to. */
export async function signedIn(
  product: Product,
  email: string,
  password = DEMO_PASSWORD,
): Promise<Page> {
  const page = await freshPage(product.browser);
  await logIn(page, product.server.url, email, password);
  return page;
}

/** A 1x1 transparent PNG, for avatar and logo uploads. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

/** The bytes of a file named `name` as `folderToPick` writes it, to compare with what arrived. */
export function patternOf(name: string, size: number): Uint8Array {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31 + name.length * 7) & 255;
  return bytes;
}

/**
 * Writes the files (by name and size, the bytes of `patternOf`) into a folder of the page's
 * origin-private file system, and has the page's folder picker answer it, standing in for the
 * person's disk.
 */
export async function folderToPick(
  page: Page,
  folder: string,
  files: { name: string; size: number }[],
): Promise<void> {
  await page.evaluate(
    async ({ folder, files }) => {
      const root = await navigator.storage.getDirectory();
      const dir = await root.getDirectoryHandle(folder, { create: true });
      for (const { name, size } of files) {
        const writable = await (await dir.getFileHandle(name, { create: true })).createWritable();
        // Written a piece at a time, so a large file never sits in the page whole.
        const piece = 8 * 1024 * 1024;
        for (let start = 0; start < size; start += piece) {
          const bytes = new Uint8Array(Math.min(piece, size - start));
          for (let b = 0; b < bytes.length; b++) {
            bytes[b] = ((start + b) * 31 + name.length * 7) & 255;
          }
          await writable.write(bytes);
        }
        await writable.close();
      }
      Object.assign(window, { showDirectoryPicker: async () => dir });
    },
    { folder, files },
  );
}

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
