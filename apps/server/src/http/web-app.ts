import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Vite names every built script, style and image under assets/ by a hash of its content. */
const HASHED_ASSETS = 'assets';

/** Hashed files never change under their name: a browser keeps them a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The pages and the SPA fallback: revalidated on every visit, so a new build shows at once. */
export const REVALIDATE = 'no-cache';
/** Unhashed files beside index.html (favicon, robots.txt): rarely changed, a day late is fine. */
export const DAY = 'public, max-age=86400';

/** A page of the build (index.html and the pages below) or one of its compressed copies. */
const PAGE = /\.html(\.br|\.gz)?$/;

/**
 * Pages built apart from the app for the paths people open from a link, with only their own
 * scripts: the login page (the app loads once someone signs in) and the external package page.
 */
const PAGES: { file: string; serves: (pathname: string) => boolean }[] = [
  { file: 'login.html', serves: (pathname) => pathname === '/login' },
  { file: 'external.html', serves: (pathname) => pathname.startsWith('/inbox/external/') },
];

/**
 * The built single-page app at `/`, with every unknown GET answered by its page. The build
 * writes a brotli (.br) and a gzip (.gz) copy beside each text file; the copy the client's
 * Accept-Encoding names is sent as is, so no CPU is spent compressing per request.
 */
export function serveWebApp(app: FastifyInstance, webDist: string): void {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  // A build without one of the pages serves its paths from index.html: the app has them all.
  const pages = PAGES.filter(({ file }) => existsSync(path.join(webDist, file)));
  const pageFor = (url: string) => {
    const pathname = url.split('?', 1)[0] ?? url;
    return pages.find(({ serves }) => serves(pathname))?.file ?? 'index.html';
  };
  const assetsDir = path.join(webDist, HASHED_ASSETS) + path.sep;
  const cacheControl = (reply: FastifyReply, file: string) =>
    reply.header(
      'cache-control',
      file.startsWith(assetsDir) ? IMMUTABLE : PAGE.test(file) ? REVALIDATE : DAY,
    );
  if (hasBuild) {
    app.register(fastifyStatic, {
      root: webDist,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: cacheControl,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send({ detail: 'Not found.' });
    }
    if (!hasBuild) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built: run `npm run build` (npm start does it for you).');
    }
    // A missing hashed file is an old build's asset, not a page: index.html there would be
    // cached as a script for a year.
    if (request.url.startsWith(`/${HASHED_ASSETS}/`)) {
      return reply.code(404).header('cache-control', REVALIDATE).send({ detail: 'Not found.' });
    }
    return reply.type('text/html').sendFile(pageFor(request.url));
  });
}
