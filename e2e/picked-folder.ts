import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

// A download folder "picked" in headless Chromium: the native picker cannot be answered there,
// so `showDirectoryPicker` answers a folder of the origin-private file system instead, which is
// the same FileSystemDirectoryHandle interface a picked folder has. Optimised download is on by
// default where the picker exists, so every folder download in the suites goes through here.

/**
 * Makes the folder picker of every page of `target` (a page, or a whole browser context, which
 * then holds across reloads and new pages) answer the private folder `name`, made if missing.
 */
export async function answerPickerWith(target: Page | BrowserContext, name: string) {
  await target.addInitScript((folderName: string) => {
    Object.assign(window, {
      showDirectoryPicker: async () =>
        (await navigator.storage.getDirectory()).getDirectoryHandle(folderName, { create: true }),
    });
  }, name);
  // A page already open takes it now too.
  const pages = 'pages' in target ? target.pages() : [target];
  for (const page of pages) {
    await page.evaluate((folderName: string) => {
      Object.assign(window, {
        showDirectoryPicker: async () =>
          (await navigator.storage.getDirectory()).getDirectoryHandle(folderName, {
            create: true,
          }),
      });
    }, name);
  }
}

/**
 * Download All on the page's package, unpacked by the engine into the private folder `name` the
 * picker answers. Waits until the download queue's ring counts `downloads` downloads, all done,
 * then opens the queue and answers its item for the package `pkg`.
 */
export async function unpackAllInto(page: Page, name: string, pkg: string, downloads = 1) {
  await answerPickerWith(page, name);
  await page.getByRole('button', { name: 'Download All' }).click();
  await page.getByRole('menuitem', { name: 'Unpack into a folder' }).click();
  const ring = page.getByRole('button', { name: /^Download queue:/ });
  await expect
    .poll(() => ring.getAttribute('aria-label'))
    .toBe(`Download queue: ${downloads} download${downloads === 1 ? '' : 's'}, 100%`);
  await ring.click();
  return page.getByRole('dialog', { name: 'Download queue' }).getByRole('listitem', { name: pkg });
}

/** The bytes of `path` inside the private folder `name`, or null when there is no such file. */
export async function readPicked(page: Page, name: string, path: string): Promise<Buffer | null> {
  const bytes = await page.evaluate(
    async ({ name, path }) => {
      try {
        let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
        const parts = path.split('/');
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
        const file = await (await dir.getFileHandle(parts.at(-1)!)).getFile();
        return [...new Uint8Array(await file.arrayBuffer())];
      } catch {
        return null;
      }
    },
    { name, path },
  );
  return bytes && Buffer.from(bytes);
}

/** Every file inside the private folder `name` by its path, with its size, sorted by path. */
export async function filesInPicked(page: Page, name: string) {
  return page.evaluate(async (name) => {
    type Dir = FileSystemDirectoryHandle & {
      entries(): AsyncIterable<[string, FileSystemHandle]>;
    };
    const out: { path: string; size: number }[] = [];
    const walk = async (dir: Dir, prefix: string) => {
      for await (const [entry, handle] of dir.entries()) {
        if (handle.kind === 'directory') await walk(handle as Dir, `${prefix}${entry}/`);
        else
          out.push({
            path: prefix + entry,
            size: (await (handle as FileSystemFileHandle).getFile()).size,
          });
      }
    };
    const root = await navigator.storage.getDirectory();
    await walk((await root.getDirectoryHandle(name, { create: true })) as Dir, '');
    return out.sort((a, b) => a.path.localeCompare(b.path));
  }, name);
}

/**
 * The SHA-256 (hex) of `path` inside the private folder `name`, hashed in the page: large files
 * need not cross into the test as bytes. Null when there is no such file.
 */
export async function sha256OfPicked(page: Page, name: string, path: string) {
  return page.evaluate(
    async ({ name, path }) => {
      try {
        let dir = await (await navigator.storage.getDirectory()).getDirectoryHandle(name);
        const parts = path.split('/');
        for (const part of parts.slice(0, -1)) dir = await dir.getDirectoryHandle(part);
        const file = await (await dir.getFileHandle(parts.at(-1)!)).getFile();
        const digest = new Uint8Array(
          await crypto.subtle.digest('SHA-256', await file.arrayBuffer()),
        );
        return [...digest].map((b) => b.toString(16).padStart(2, '0')).join('');
      } catch {
        return null;
      }
    },
    { name, path },
  );
}
