import { Command } from 'commander';
import { asc } from 'drizzle-orm';
import { buildApp, type BuiltApp } from '../app';
import { ConfigError, loadConfig } from '../config';
import { contracts } from '../db/schema';
import {
  createContract,
  setBrandingEnabled,
  setContractEnabled,
} from '../modules/contracts/contracts.service';

/**
 * Operator commands for a real installation (started with SEED_DEMO=false): they use the same
 * configuration as the server, so they act on the same database and send mail the same way. On
 * the embedded default they work whether or not the server runs: beside a running server they
 * use its database; otherwise they start the embedded database themselves for the command.
 */
async function withApp(work: (built: BuiltApp) => Promise<void>): Promise<void> {
  const built = await buildApp(loadConfig({ LOG_LEVEL: 'warn', ...process.env }), {
    holder: 'admin CLI',
  });
  try {
    await work(built);
    // Mail queued by the command leaves now rather than at the server's next start.
    await built.outbox.drain();
  } finally {
    await built.app.close();
  }
}

const program = new Command('admin').description('FileRunner administration');

program
  .command('create-contract')
  .description('create a contract and invite its project admin by mail')
  .requiredOption('--name <name>', 'contract name')
  .requiredOption('--admin-email <email>', 'address of the project admin')
  .option('--admin-first-name <name>', "admin's first name")
  .option('--admin-last-name <name>', "admin's last name")
  .action(
    (opts: { name: string; adminEmail: string; adminFirstName?: string; adminLastName?: string }) =>
      withApp(async ({ ctx }) => {
        if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.adminEmail))
          throw new Error('--admin-email is not an email address');
        const contract = await createContract(ctx, {
          name: opts.name.trim(),
          adminEmail: opts.adminEmail,
          adminFirstName: opts.adminFirstName,
          adminLastName: opts.adminLastName,
        });
        process.stdout.write(
          `Created contract "${contract.name}" (slug ${contract.slug}); activation mail sent to ${opts.adminEmail}.\n`,
        );
      }),
  );

program
  .command('list-contracts')
  .description('list every contract')
  .action(() =>
    withApp(async ({ ctx }) => {
      const rows = await ctx.db.select().from(contracts).orderBy(asc(contracts.id));
      for (const c of rows)
        process.stdout.write(
          `${c.slug}\t${c.enabled ? 'enabled' : 'disabled'}\t` +
            `branding ${c.brandingEnabled ? 'enabled' : 'disabled'}\t${c.name}\n`,
        );
      if (rows.length === 0) process.stdout.write('No contracts yet.\n');
    }),
  );

// The operator's switches on a contract: each a disable-X and an enable-X command.
const switches = [
  {
    noun: 'contract',
    subject: 'a contract',
    set: setContractEnabled,
    effect: (on: boolean) => `its members ${on ? 'regain' : 'lose'} access to it`,
    done: (slug: string) => `Contract ${slug}`,
  },
  {
    noun: 'branding',
    subject: "a contract's custom branding",
    set: setBrandingEnabled,
    effect: (on: boolean) =>
      on
        ? 'its project admins can set it on the Custom Branding tab'
        : 'the default branding shows and the Custom Branding tab is hidden',
    done: (slug: string) => `Custom branding of contract ${slug}`,
  },
] as const;

for (const { noun, subject, set, effect, done } of switches) {
  for (const enabled of [false, true]) {
    const verb = enabled ? 'enable' : 'disable';
    program
      .command(`${verb}-${noun}`)
      .description(`${verb} ${subject}: ${effect(enabled)}`)
      .requiredOption('--slug <slug>', 'contract slug')
      .action((opts: { slug: string }) =>
        withApp(async ({ ctx }) => {
          if (!(await set(ctx, opts.slug, enabled)))
            throw new Error(`No contract with slug ${opts.slug}`);
          process.stdout.write(`${done(opts.slug)} ${verb}d.\n`);
        }),
      );
  }
}

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof ConfigError || error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
