import Fastify from 'fastify';
import { embeddedStorePlugin } from '../embedded-store-plugin';

/**
 * The embedded store alone in a process of its own, for tests that kill it or watch its
 * memory: `node --import tsx store-process.ts <root> <tempUrlKey>`. Prints one JSON line
 * `{"port": n}` on stdout once it listens on 127.0.0.1.
 */
const [root, tempUrlKey] = process.argv.slice(2);
if (!root || !tempUrlKey) {
  console.error('usage: store-process.ts <root> <tempUrlKey>');
  process.exit(2);
}
const app = Fastify();
await app.register(embeddedStorePlugin, { root, account: 'AUTH_filerunner', tempUrlKey });
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
process.stdout.write(`${JSON.stringify({ port })}\n`);
process.on('SIGTERM', () => {
  void app.close().then(() => process.exit(0));
});
