import type { IndexHtmlTransformContext, Plugin } from 'vite';

/** The page whose entry's dynamic imports are the steps of the app's start (src/main.tsx). */
const APP_PAGE = '/index.html';

/**
 * The app's entry imports its start one step at a time so that no single task evaluates every
 * script (src/main.tsx); Vite would fetch each step's scripts only when the step before it has
 * run, a round trip each on a slow link. This preloads them all from index.html at once, as
 * Vite does for an entry's static imports: the steps then wait on the CPU only.
 */
export function bootPreload(): Plugin {
  return {
    name: 'filerunner-boot-preload',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html: string, ctx: IndexHtmlTransformContext) {
        const entry = ctx.chunk;
        if (ctx.path !== APP_PAGE || !ctx.bundle || !entry) {
          return html;
        }
        const bundle = ctx.bundle;
        const preloaded = new Set<string>([entry.fileName, ...entry.imports]);
        const files: string[] = [];
        const visit = (fileName: string) => {
          if (preloaded.has(fileName)) return;
          preloaded.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type !== 'chunk') return;
          chunk.imports.forEach(visit);
          files.push(fileName);
        };
        entry.dynamicImports.forEach(visit);
        return {
          html,
          tags: files.map((file) => ({
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` },
            injectTo: 'head' as const,
          })),
        };
      },
    },
  };
}
