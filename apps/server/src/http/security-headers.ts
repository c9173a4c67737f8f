import type { FastifyInstance } from 'fastify';
import helmet from '@fastify/helmet';
import type { Config } from '../config';
import type { StorageDriver } from '../storage';
import { latencyGroups } from '../modules/latency';

/** Helmet's headers on every answer, with a content policy that lets the engine reach storage. */
export async function installSecurityHeaders(
  app: FastifyInstance,
  config: Config,
  storage: StorageDriver,
): Promise<void> {
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'img-src': ["'self'", 'data:', 'blob:'],
        // The transfer engine hashes files (xxh128) with WebAssembly in a worker.
        'script-src': ["'self'", "'wasm-unsafe-eval'"],
        // The transfer engine moves bytes straight to and from storage, which with Swift is on
        // other hosts than the app.
        // The latency page times the hosts of LATENCY_HOSTS, which may be anywhere.
        'connect-src': [
          "'self'",
          ...new Set(
            [
              storage.accountUrl,
              ...storage.alternativeAccountUrls,
              ...latencyGroups(config, storage).flatMap((g) => g.hosts.map((h) => h.url)),
            ].map((url) => new URL(url).origin),
          ),
        ],
        // MUI (emotion) injects style elements at run time.
        'style-src': ["'self'", "'unsafe-inline'"],
        // Over plain HTTP (the embedded default) upgrading requests would break every fetch.
        'upgrade-insecure-requests': config.secureCookies ? [] : null,
      },
    },
    hsts: config.secureCookies,
  });
}
