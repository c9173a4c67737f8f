import { Command } from 'commander';
import { asc } from 'drizzle-orm';
import { formatSize, parseSize } from '@filerunner/protocol';
import { loadConfig } from '../config';
import { createContext, type AppContext, type Context } from '../context';
import { contracts } from '../db/schema';
import { recordedPublicUrl } from '../db/server-settings';
import {
  createContract,
  setBrandingEnabled,
  setContractEnabled,
  setContractQuotas,
  type ContractQuotas,
} from '../modules/contracts/contracts.service';

/** The quota options as given on the command line. */
interface QuotaOptions {
  storageQuota?: string;
  maxPackageSize?: string;
}

const quotaHelp = {
  storageQuota: "total size of the contract's live packages, e.g. 500GB, or unlimited",
  maxPackageSize: 'largest package, e.g. 10GB, or unlimited',
} as const;

/** A limit given on the command line, in bytes, or null for 'unlimited'. */
function limitOf(option: string, given: string): number | null {
  if (/^\s*(unlimited|none)\s*$/i.test(given)) return null;
  const bytes = parseSize(given);
  if (bytes === null || bytes <= 0)
    throw new Error(`${option} must be a size such as 500GB or 10 GiB, or unlimited`);
  return bytes;
}

/** The limits named by the options; a limit left out is not in the answer. */
function quotasOf(opts: QuotaOptions): ContractQuotas {
  return {
    ...(opts.storageQuota === undefined
      ? {}
      : { storageQuota: limitOf('--storage-quota', opts.storageQuota) }),
    ...(opts.maxPackageSize === undefined
      ? {}
      : { maxPackageSize: limitOf('--max-package-size', opts.maxPackageSize) }),
  };
}

const limitText = (bytes: number | null | undefined) =>
  bytes == null ? 'unlimited' : formatSize(bytes);

/**
 * Operator commands for a real installation (started with SEED_DEMO=false): they use the same
 * configuration as the server, so they act on the same database and send mail the same way. On
 * the embedded default they work whether or not the server runs: beside a running server they
 * use its database; otherwise they start the embedded database themselves for the command.
 *
 * A command opens the database and the mail transport only: no HTTP app, no realtime listener,
 * no storage (with Swift, no login), no worker but one outbox drain at the end. Its mails link to
 * PUBLIC_URL when the command's environment sets it, else to the public URL the server recorded
 * on the database as it started (see withMailedLinks).
 */
export async function withAdminContext(
  work: (ctx: Context) => Promise<void>,
  env: NodeJS.ProcessEnv = process.env,
): Promise<void> {
  const ctx = await createContext(loadConfig({ LOG_LEVEL: 'warn', ...env }), {
    holder: 'admin CLI',
    storage: false,
  });
  try {
    await work(await withMailedLinks(ctx));
    // Mail queued by the command leaves now rather than at the server's next start.
    await ctx.workers.outbox.drain();
  } finally {
    await ctx.close();
  }
}

export const noPublicUrl =
  'Not mailing: the admin CLI does not know the public URL to put in links. Start the server ' +
  'once on this database (it records its PUBLIC_URL), or set PUBLIC_URL for this command.';

/**
 * The context whose mails link where the server is reached. PUBLIC_URL's default
 * (`http://localhost:$PORT`) is a guess that is wrong beside a server configured otherwise, so
 * without PUBLIC_URL of its own the command takes the server's recorded one, and without that
 * it refuses to queue mail: the refusal rolls back the command's transaction, so nothing is made.
 */
async function withMailedLinks(ctx: Context): Promise<Context> {
  if (ctx.config.publicUrlSet) return ctx;
  const recorded = await recordedPublicUrl(ctx.db);
  if (recorded) return { ...ctx, config: { ...ctx.config, publicUrl: recorded } };
  return {
    ...ctx,
    mailbox: {
      queue: () => Promise.reject(new Error(noPublicUrl)),
    },
  };
}

/** Runs a command's work on a context, then closes it. */
export type ContextRunner = (work: (ctx: AppContext) => Promise<void>) => Promise<void>;

/** The operator's commands, each run on a context `withContext` opens for it. */
export function adminProgram(withContext: ContextRunner = withAdminContext): Command {
  const program = new Command('admin').description('FileRunner administration');

  program
    .command('create-contract')
    .description('create a contract and invite its project admin by mail (or tell an existing one)')
    .requiredOption('--name <name>', 'contract name')
    .requiredOption('--admin-email <email>', 'address of the project admin')
    .option('--admin-first-name <name>', "admin's first name")
    .option('--admin-last-name <name>', "admin's last name")
    .option('--storage-quota <size>', `${quotaHelp.storageQuota} (default unlimited)`)
    .option('--max-package-size <size>', `${quotaHelp.maxPackageSize} (default unlimited)`)
    .action(
      (
        opts: {
          name: string;
          adminEmail: string;
          adminFirstName?: string;
          adminLastName?: string;
        } & QuotaOptions,
      ) =>
        withContext(async (ctx) => {
          if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(opts.adminEmail))
            throw new Error('--admin-email is not an email address');
          const { contract, told } = await createContract(ctx, {
            name: opts.name.trim(),
            adminEmail: opts.adminEmail,
            adminFirstName: opts.adminFirstName,
            adminLastName: opts.adminLastName,
            quotas: quotasOf(opts),
          });
          const mail =
            told === 'activation'
              ? `activation mail sent to ${opts.adminEmail}`
              : `${opts.adminEmail} already has an account and was mailed that it was added`;
          process.stdout.write(
            `Created contract "${contract.name}" (slug ${contract.slug}); ${mail}.\n`,
          );
        }),
    );

  program
    .command('list-contracts')
    .description('list every contract')
    .action(() =>
      withContext(async (ctx) => {
        const rows = await ctx.db.select().from(contracts).orderBy(asc(contracts.id));
        for (const c of rows)
          process.stdout.write(
            `${c.slug}\t${c.enabled ? 'enabled' : 'disabled'}\t` +
              `branding ${c.brandingEnabled ? 'enabled' : 'disabled'}\t` +
              `storage quota ${limitText(c.storageQuota)}\t` +
              `largest package ${limitText(c.maxPackageSize)}\t${c.name}\n`,
          );
        if (rows.length === 0) process.stdout.write('No contracts yet.\n');
      }),
    );

  program
    .command('set-quotas')
    .description(
      "set a contract's storage quota and largest package: a package that would go past " +
        'either is refused when it is created; packages already created are kept',
    )
    .requiredOption('--slug <slug>', 'contract slug')
    .option('--storage-quota <size>', quotaHelp.storageQuota)
    .option('--max-package-size <size>', quotaHelp.maxPackageSize)
    .action((opts: { slug: string } & QuotaOptions) =>
      withContext(async (ctx) => {
        const quotas = quotasOf(opts);
        if (Object.keys(quotas).length === 0)
          throw new Error('Give --storage-quota, --max-package-size or both');
        if (!(await setContractQuotas(ctx, opts.slug, quotas)))
          throw new Error(`No contract with slug ${opts.slug}`);
        const said = [
          ...('storageQuota' in quotas ? [`storage quota ${limitText(quotas.storageQuota)}`] : []),
          ...('maxPackageSize' in quotas
            ? [`largest package ${limitText(quotas.maxPackageSize)}`]
            : []),
        ];
        process.stdout.write(`Contract ${opts.slug}: ${said.join(', ')}.\n`);
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
          withContext(async (ctx) => {
            if (!(await set(ctx, opts.slug, enabled)))
              throw new Error(`No contract with slug ${opts.slug}`);
            process.stdout.write(`${done(opts.slug)} ${verb}d.\n`);
          }),
        );
    }
  }
  return program;
}
