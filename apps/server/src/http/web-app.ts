import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';

/** Vite names every built script, style and image under assets/ by a hash of its content. */
const HASHED_ASSETS = 'assets';

/** Hashed files never change under their name: a browser keeps them a year without asking. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html and the SPA fallback: revalidated on every visit, so a new build shows at once. */
export const REVALIDATE = 'no-cache';
/** Unhashed files beside index.html (favicon, robots.txt): rarely changed, a day late is fine. */
export const DAY = 'public, max-age=86400';

/**
 * The built single-page app at `/`, with every unknown GET answered by index.html. The build
 * writes a brotli (.br) and a gzip (.gz) copy beside each text file; the copy the client's
 * Accept-Encoding names is sent as is, so no CPU is spent compressing per request.
 */
export function serveWebApp(app: FastifyInstance, webDist: string): void {
  const hasBuild = existsSync(path.join(webDist, 'index.html'));
  const assetsDir = path.join(webDist, HASHED_ASSETS) + path.sep;
  const indexFile = path.join(webDist, 'index.html');
  const cacheControl = (reply: FastifyReply, file: string) =>
    reply.header(
      'cache-control',
      file.startsWith(assetsDir) ? IMMUTABLE : file.startsWith(indexFile) ? REVALIDATE : DAY,
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
    return reply.type('text/html').sendFile('index.html');
  });
}
