import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Plugin } from 'vite';

/**
 * The pages built beside index.html, each with an entry of its own, and the server sends each for
 * its paths (apps/server/src/http/web-app.ts): pages opened from a link by people who may never
 * see the rest of the app get their own scripts only.
 */
export const pages = {
  /** The sign-in form; the app loads once someone signs in. */
  'login.html': '/src/login-main.tsx',
  /** A package opened by the link mailed to a recipient without an account. */
  'external.html': '/src/external-main.tsx',
};
type PageName = keyof typeof pages;

/** The entry of index.html, which the pages replace. */
const APP_ENTRY = '/src/main.tsx';

/**
 * Builds each page of `pages` from index.html with its script swapped for the page's own entry:
 * the build then gives each page just its own scripts to preload. The pages exist only in the
 * build, so they cannot drift apart from index.html.
 */
export function appPages(): Plugin {
  let root = '';
  const pageOf = (id: string): PageName | undefined =>
    (Object.keys(pages) as PageName[]).find((name) => id === name || id === path.join(root, name));
  return {
    name: 'filerunner-pages',
    enforce: 'pre',
    configResolved(config) {
      root = config.root;
    },
    resolveId(id) {
      const page = pageOf(id);
      return page ? path.join(root, page) : null;
    },
    async load(id) {
      const page = pageOf(id);
      if (!page) return null;
      const index = await readFile(path.join(root, 'index.html'), 'utf8');
      if (!index.includes(APP_ENTRY)) throw new Error(`index.html does not load ${APP_ENTRY}`);
      return index.replace(APP_ENTRY, pages[page]);
    },
  };
}

/** The build's inputs: index.html and every page. */
export const pageInputs = {
  index: 'index.html',
  ...Object.fromEntries(Object.keys(pages).map((name) => [name.replace('.html', ''), name])),
};
