import { stat } from 'node:fs/promises';
import {
  ApiError,
  defaultFilesystemConstraints,
  newIdempotencyKey,
  type Contract,
  type RecipientGroup,
  type SenderPackage,
  formatSize,
} from '@filerunner/protocol';
import {
  emptyLedger,
  FetchHttpClient,
  intendedFilesOf,
  JsonFileResumeStore,
  planUpload,
  sentFiles,
  walkPaths,
  type ByteSource,
  type UploadLedger,
  type UploadPackage,
  type UploadPlan,
} from '@filerunner/transfer/node';
import { CliFailure, failureOfCall } from './failures';
import {
  findInterrupted,
  forgetInterrupted,
  ledgerFileFor,
  PendingCreates,
  type UploadIdentity,
} from './interrupted-uploads';
import { recipientsFor } from './recipients';
import type { SendOptions } from './send-options';
import { apiTarget, ServerApi } from './server-api';
import { runUpload, type UploadIo } from './upload';

const DAY_MS = 86_400_000;
/** Files named in a message at most; the count says how many more there are. */
const LISTED_FILES = 10;

/**
 * `filerunner send`: reads the files, asks the server what it needs (the contract's settings,
 * whom the sender may reach), creates the package (or picks up the one an interrupted run of
 * the same command left), and hands the upload to the engine. Answers the package's slug once
 * it is sent; every failure is a `CliFailure` of its kind.
 */
export async function send(options: SendOptions, io: UploadIo): Promise<string> {
  const sources = await readSources(options.paths);
  const server = new ServerApi(new FetchHttpClient(), apiTarget(options.serverUrl, options.apiKey));
  const call = <T>(toDo: string, work: Promise<T>) =>
    work.catch((error: unknown) => {
      io.signal.throwIfAborted();
      throw failureOfCall(error, toDo, options.serverUrl);
    });

  const contracts = await call(
    'sign in',
    server.contracts(io.signal).catch((error: unknown) => {
      // A 404 for a call every FileRunner has: the URL points somewhere else.
      if (error instanceof ApiError && error.status === 404) {
        throw new CliFailure('unreachable', `No FileRunner API at ${options.serverUrl}.`);
      }
      throw error;
    }),
  );
  const contract = contracts.find((c) => c.slug === options.contract);
  const constraints = await server.constraints(io.signal).catch(() => {
    io.signal.throwIfAborted();
    return defaultFilesystemConstraints;
  });
  const plan = planUpload(sources, {
    useSlabFiles: contract?.settings.use_slab_files ?? false,
    constraints,
  });
  reportPlan(plan, io);

  const ledgerFile = ledgerFileFor(options.serverUrl);
  const store = new JsonFileResumeStore<UploadLedger>(ledgerFile);
  const identity: UploadIdentity = { plan, contract: options.contract, name: options.name };
  const pending = new PendingCreates(ledgerFile);
  let pkg: UploadPackage | undefined;
  if (options.resume) {
    pkg = (await unlessUnreadable(ledgerFile, findInterrupted(store, identity)))?.package;
    if (pkg) {
      io.say(`Continuing package ${pkg.slug}, interrupted earlier: sending what is missing.`);
      // Its create call is settled, even if a crash came before that was written down.
      await pending.settled(identity);
    }
  } else {
    await unlessUnreadable(ledgerFile, forgetInterrupted(store, identity));
  }
  if (!pkg) {
    // Unknown contracts are refused here, in the server's words, before anything is created.
    const groups = await call(
      `list the recipients of contract "${options.contract}"`,
      server.recipients(options.contract, io.signal),
    );
    const { key, askedAt } = await unlessUnreadable(
      ledgerFile,
      pending.keyFor(identity, options.resume, newIdempotencyKey()),
    );
    const created = await call(
      'create the package',
      server.createPackage(createFields(options, plan, groups, askedAt), key, io.signal),
    );
    pkg = packageOf(created);
    // On record before a byte moves, so a Ctrl-C from here on continues this package.
    const { slug, name, contract: target } = pkg;
    await store.put(slug, emptyLedger({ slug, name, contract: target }, sentFiles(plan)));
    await pending.settled(identity);
    io.say(`Created package ${pkg.slug}: ${describe(plan)} for ${recipientsOf(created)}.`);
  }

  await runUpload({ plan, pkg, api: server.target, ledgerFile, workers: workersOf(contract) }, io);
  io.say(`Sent "${pkg.name}" (${pkg.slug}): ${describe(plan)}.`);
  return pkg.slug;
}

/** A ledger file that is not JSON (edited by hand, a full disk) is named, not a crash. */
function unlessUnreadable<T>(ledgerFile: string, work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    if (!(error instanceof SyntaxError)) throw error;
    throw new CliFailure(
      'unexpected',
      `${ledgerFile} cannot be read (${error.message}); move it away to start afresh.`,
    );
  });
}

/** The files of the paths given; a path that does not exist is a bad argument, not a crash. */
async function readSources(paths: readonly string[]): Promise<ByteSource[]> {
  for (const given of paths) {
    const info = await stat(given).catch(() => null);
    if (!info) throw new CliFailure('badArguments', `No such file or folder: ${given}`);
    if (!info.isFile() && !info.isDirectory()) {
      throw new CliFailure('badArguments', `Not a file or folder: ${given}`);
    }
  }
  try {
    return await walkPaths(paths);
  } catch (error) {
    const { code, path } = error as NodeJS.ErrnoException;
    if (code === 'EACCES' || code === 'EPERM') {
      throw new CliFailure('badArguments', `Cannot read ${path ?? 'a file'}: permission denied.`);
    }
    throw error;
  }
}

/** Says which files are left out and which names some systems cannot write; refuses an empty plan. */
function reportPlan(plan: UploadPlan, io: UploadIo) {
  const reasons = {
    ignored: 'a system file',
    emoji: 'an emoji in its path',
    invalid_path: 'a path no package can hold',
    too_large: 'too large for one package file',
  } as const;
  if (plan.excluded.length > 0) {
    io.say(`Leaving out ${plan.excluded.length} file(s):`);
    for (const { source, reason } of plan.excluded.slice(0, LISTED_FILES)) {
      io.say(`  ${source.path} (${reasons[reason]})`);
    }
    if (plan.excluded.length > LISTED_FILES) {
      io.say(`  and ${plan.excluded.length - LISTED_FILES} more`);
    }
  }
  if (plan.problemFiles.length > 0) {
    io.say(
      `${plan.problemFiles.length} file(s) have names some systems cannot write; they are sent, ` +
        'and recipients on those systems download them inside a .tar:',
    );
    for (const { source, problems } of plan.problemFiles.slice(0, LISTED_FILES)) {
      io.say(`  ${source.path}: ${problems.join('; ')}`);
    }
  }
  if (plan.totalFiles === 0) {
    throw new CliFailure(
      'badArguments',
      'Nothing to send: the paths hold no files that can be sent.',
    );
  }
}

/** The create call's fields; the access period starts `now`, when the call was first made. */
function createFields(
  options: SendOptions,
  plan: UploadPlan,
  groups: RecipientGroup[],
  now: number,
) {
  return {
    contract: options.contract,
    name: options.name,
    message: options.message,
    pin_verify: options.pin,
    recipients: recipientsFor(options.to, groups),
    valid_from: new Date(now).toISOString(),
    valid_to: new Date(now + options.days * DAY_MS).toISOString(),
    ...intendedFilesOf(plan),
  };
}

function packageOf(created: SenderPackage): UploadPackage {
  return {
    slug: created.slug,
    name: created.name,
    contract: { slug: created.contract.slug },
    session_id: created.session_id,
  };
}

/** The contract's upload workers; the engine's default when the contract is not listed. */
function workersOf(contract: Contract | undefined): number | undefined {
  return contract?.settings.number_of_upload_workers;
}

const describe = (plan: UploadPlan) => `${plan.totalFiles} file(s), ${formatSize(plan.totalBytes)}`;

const recipientsOf = (created: SenderPackage) => created.recipients.map((r) => r.email).join(', ');
