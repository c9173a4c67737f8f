import closeWithGrace from 'close-with-grace';
import { buildHttpApp, type HttpApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { DataDirInUse } from './db/data-dir-lock';
import { startWorkers } from './jobs/workers';
import { DEMO_USERS, seedDemo } from './seed/demo';

async function main(): Promise<void> {
  const config = loadConfig();
  const ctx = await createContext(config);
  let http: HttpApp;
  try {
    http = await buildHttpApp(ctx);
  } catch (error) {
    await ctx.close();
    throw error;
  }
  const { app, readiness } = http;

  if (config.seedDemo) {
    const demo = await seedDemo(ctx);
    if (demo) {
      const lines = [
        '',
        'Demo contract created. Log in at ' + config.publicUrl + '/login with:',
        ...DEMO_USERS.map(
          (u) =>
            `  ${u.email.padEnd(24)} ${u.admin ? 'project admin' : u.send ? 'sender' : 'receive only'}`,
        ),
        demo.generated
          ? `  password: ${demo.password}   (generated; shown only this once, set DEMO_PASSWORD to choose it)`
          : '  password: the value of DEMO_PASSWORD',
        '',
      ];
      process.stdout.write(lines.join('\n') + '\n');
    }
  }

  const stopWorkers = startWorkers(ctx);
  const drainMs = config.drainSeconds * 1000;
  closeWithGrace({ delay: drainMs + 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    // /readyz answers 503 first, while everything is still served, so that a balancer polling
    // it sends new work elsewhere before the port closes.
    readiness.drain();
    if (drainMs > 0 && !err) {
      app.log.info(`draining for ${config.drainSeconds} s before closing`);
      await new Promise((resolve) => setTimeout(resolve, drainMs));
    }
    // Connections first (downloads get their grace), then the workers, then what they all use.
    await app.close();
    await stopWorkers();
    await ctx.close();
  });
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof DataDirInUse) {
    process.stderr.write(`${error.message}\n`);
  } else {
    process.stderr.write(
      `FileRunner failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
    );
  }
  process.exit(1);
});
