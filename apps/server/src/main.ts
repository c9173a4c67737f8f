import closeWithGrace from 'close-with-grace';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { DataDirInUse } from './db/data-dir-lock';
import { DEMO_USERS, seedDemo } from './seed/demo';

async function main(): Promise<void> {
  const config = loadConfig();
  const { app, ctx, outbox, jobs, expirySweeper, objectSweeper } = await buildApp(config);

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

  outbox.start();
  jobs.start();
  expirySweeper.start();
  objectSweeper.start();
  closeWithGrace({ delay: 10_000 }, async ({ err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    await app.close();
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
