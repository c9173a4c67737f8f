import { homedir } from 'node:os';
import path from 'node:path';
import {
  api,
  ApiError,
  createRouteClient,
  formatRate,
  formatSize,
  type PackageDownloadGrant,
  type ReceiptPublicKey,
} from '@filerunner/protocol';
import {
  DiskWrittenBytes,
  DownloadFailedError,
  FetchHttpClient,
  FolderSink,
  JsonFileResumeStore,
  ledgerKeyOf,
  nodeSha256,
  OccupiedFolderError,
  planDownload,
  quotedNames,
  requestReceipt,
  runDownload,
  systemClock,
  XxhashFileHasher,
  type DownloadDescriptor,
  type DownloadLedger,
  type DownloadOutcome,
  type DownloadProgress,
  type ReceiptCalls,
} from '@filerunner/transfer/node';
import { CliFailure, failureOfCall } from './failures';
import { saveReceiptFile, verifiedReceipt } from './receipt-file';
import { ReceiveFolders } from './receive-folder';
import { apiTarget } from './server-api';

/** Where the package comes from: a recipient's external link, or a slug with an API key. */
export type ReceiveSource =
  | { readonly link: string }
  | { readonly url: string; readonly apiKey: string; readonly slug: string };

export interface ReceiveOptions {
  readonly source: ReceiveSource;
  /**
   * The folder the files go into (made if missing); without one, a new folder named after the
   * package inside `parent` (see `ReceiveFolders`).
   */
  readonly out?: string;
  /** Where the package's own folder is made when `out` is not given. */
  readonly parent: string;
  /** Keep the package's `.tar` instead of unpacking it. */
  readonly tar: boolean;
  /** Replace files already in the folder that no earlier run of this download wrote. */
  readonly overwrite: boolean;
}

/**
 * An external link as the recipient's mail has it: `<server>/inbox/external/<slug>?key=<key>`.
 * @throws CliFailure 'badArguments' for anything else.
 */
export function parseExternalLink(link: string): { origin: string; slug: string; key: string } {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new CliFailure('badArguments', `Not a link: ${link}`);
  }
  const match = /\/external\/([^/]+)\/?$/.exec(url.pathname);
  const key = url.searchParams.get('key');
  if (!/^https?:$/.test(url.protocol) || !match || !key) {
    throw new CliFailure(
      'badArguments',
      'Not a package link: expected <server>/inbox/external/<package>?key=<key>.',
    );
  }
  return { origin: url.origin, slug: decodeURIComponent(match[1]!), key };
}

/** The file holding unfinished downloads' ledgers, beside the uploads' (see ledgerFileFor). */
export function downloadLedgerFile(serverUrl: string, env = process.env): string {
  const stateHome = env.XDG_STATE_HOME || path.join(homedir(), '.local', 'state');
  const host = new URL(serverUrl).host.replace(/[^A-Za-z0-9.-]/g, '_');
  return path.join(stateHome, 'filerunner', 'downloads', `${host}.json`);
}

/** Asks the server for the package's grant: its tar's URL and members. */
async function grantOf(source: ReceiveSource, signal: AbortSignal) {
  const http = new FetchHttpClient();
  if ('link' in source) {
    const { origin, slug, key } = parseExternalLink(source.link);
    const client = createRouteClient({
      http,
      baseUrl: `${origin}/api`,
      headers: { 'user-agent': 'filerunner-cli/0.1' },
      clock: systemClock,
    });
    const grant = await client
      .call(api.inbox.externalPackageGrant, { params: { slug }, query: { key } }, { signal })
      .catch((error: unknown) => {
        throw failureOfCall(error, 'open the link', origin);
      });
    const receipts: ServerReceipts = {
      slug,
      calls: {
        challenge: () =>
          client.call(api.receipts.challengeExternal, { params: { slug }, query: { key } }),
        issue: (body) =>
          client.call(api.receipts.issueExternal, { params: { slug }, query: { key }, body }),
      },
      publicKey: () => client.call(api.receipts.publicKey),
    };
    return { origin, grant: grant as PackageDownloadGrant, receipts };
  }
  const target = apiTarget(source.url, source.apiKey);
  const client = createRouteClient({ http, ...target, clock: systemClock });
  const grant = await client
    .call(api.downloads.packageGrant, { params: { slug: source.slug } }, { signal })
    .catch((error: unknown) => {
      throw failureOfCall(error, `get package ${source.slug}`, source.url);
    });
  const params = { slug: source.slug };
  const receipts: ServerReceipts = {
    slug: source.slug,
    calls: {
      challenge: () => client.call(api.receipts.challenge, { params }),
      issue: (body) => client.call(api.receipts.issue, { params, body }),
    },
    publicKey: () => client.call(api.receipts.publicKey),
  };
  return { origin: new URL(target.baseUrl).origin, grant: grant as PackageDownloadGrant, receipts };
}

/** The package's receipt calls on its server, and the key its receipts must verify with. */
interface ServerReceipts {
  readonly slug: string;
  readonly calls: ReceiptCalls;
  readonly publicKey: () => Promise<ReceiptPublicKey>;
}

/**
 * Earns the server's signed receipt of the download just finished (answering its challenge from
 * the files on disk), verifies it with the published key and saves it into the folder under a
 * name made here. Answers what to tell: where it is, or why there is none; the files are
 * complete and verified either way.
 */
async function saveReceipt(
  receipts: ServerReceipts,
  proof: { sink: FolderSink; descriptor: DownloadDescriptor; outcome: DownloadOutcome },
): Promise<string> {
  const { sink, descriptor, outcome } = proof;
  try {
    const issued = await requestReceipt(
      {
        calls: receipts.calls,
        descriptor,
        mode: sink.mode,
        written: new DiskWrittenBytes(sink),
        sha256: nodeSha256,
      },
      outcome,
    );
    verifiedReceipt(issued.receipt, await receipts.publicKey(), receipts.slug);
    const file = await saveReceiptFile(sink.folder, descriptor.filename, issued.receipt);
    return `The server's signed delivery receipt is in ${file}`;
  } catch (error) {
    const why =
      error instanceof ApiError ? `the server said: ${error.message}` : (error as Error).message;
    return `No delivery receipt was saved: ${why}. The files are complete and verified.`;
  }
}

/**
 * Receives a package into `out`: unpacked (or the `.tar` kept), in parallel ranges, checked
 * against the sender's hashes, resumable after Ctrl-C or a crash from what is on disk.
 * @throws CliFailure when the download stops, or when files failed or could not be checked
 *   (naming them).
 */
export async function receive(
  options: ReceiveOptions,
  io: {
    say: (line: string) => void;
    onProgress: (progress: DownloadProgress) => void;
    signal: AbortSignal;
  },
): Promise<DownloadOutcome> {
  const { origin, grant, receipts } = await grantOf(options.source, io.signal);
  const descriptor: DownloadDescriptor = {
    // The grant's URL carries its token: it is used, never printed.
    downloadUrl: new URL(grant.download_url, origin).toString(),
    filename: grant.filename,
    size: grant.size,
    tar: { mtime: grant.mtime, files: grant.files },
  };
  const mode = options.tar ? 'tar' : 'unpack';
  // A file list a hostile or broken server sent is refused before a folder is made.
  checkedPlan(descriptor, mode);
  const ledgerFile = downloadLedgerFile(origin);
  const download = ledgerKeyOf(descriptor, mode);
  const folders = new ReceiveFolders(ledgerFile);
  const packageName = grant.filename.replace(/\.tar$/, '');
  const out = options.out ?? (await folders.folderFor(download, packageName, options.parent));
  io.say(
    `Receiving ${quotedNames([grant.filename])} (${formatSize(grant.size)}, ${grant.files.length} files) into ${out}`,
  );
  const sink = new FolderSink(out, mode, { overwrite: options.overwrite });
  let outcome: DownloadOutcome;
  try {
    outcome = await runDownload({
      descriptor,
      sink,
      http: new FetchHttpClient(),
      ledger: new JsonFileResumeStore<DownloadLedger>(ledgerFile),
      // The ledger says which files are this download's own, so it is kept per folder.
      ledgerKey: `${download} in ${path.resolve(out)}`,
      hasher: new XxhashFileHasher(),
      signal: io.signal,
      onProgress: io.onProgress,
    });
  } catch (error) {
    io.signal.throwIfAborted();
    if (error instanceof DownloadFailedError && error.cause instanceof OccupiedFolderError) {
      throw occupiedFailure(error.cause, out);
    }
    if (error instanceof DownloadFailedError) {
      throw new CliFailure('uploadFailed', `The download stopped: ${error.message}`);
    }
    if (error instanceof ApiError) throw failureOfCall(error, 'download', origin);
    throw error;
  }
  const problems = [
    ...outcome.failedFiles.map((f) => `  failed: ${quotedNames([f.path])}: ${f.message}`),
    ...outcome.unverifiedFiles.map(
      (p) => `  not verified (the sender recorded no hash): ${quotedNames([p])}`,
    ),
  ];
  if (problems.length > 0) {
    throw new CliFailure(
      'uploadFailed',
      `${outcome.verifiedFiles} files verified; these were not:\n${problems.join('\n')}`,
    );
  }
  if (options.out === undefined) await folders.finished(download, options.parent);
  io.say(`Received ${outcome.verifiedFiles} files, each verified.`);
  io.say(await saveReceipt(receipts, { sink, descriptor, outcome }));
  return outcome;
}

/** The download's plan, or the failure its file list is refused with. */
function checkedPlan(descriptor: DownloadDescriptor, mode: 'tar' | 'unpack'): void {
  try {
    planDownload(descriptor, mode);
  } catch (error) {
    if (!(error instanceof DownloadFailedError)) throw error;
    throw new CliFailure('uploadFailed', `The package was not received: ${error.message}`);
  }
}

/** What is in the way in the folder, one name a line, and what to do about it. */
function occupiedFailure(occupied: OccupiedFolderError, out: string): CliFailure {
  const lines = [`Nothing was received: ${out} already holds`];
  if (occupied.files.length > 0) {
    lines.push('files filerunner did not write (--overwrite replaces them):');
    lines.push(...occupied.files.map((name) => `  ${quotedNames([name])}`));
  }
  if (occupied.links.length > 0) {
    lines.push('symbolic links, which filerunner never writes through:');
    lines.push(...occupied.links.map((name) => `  ${quotedNames([name])}`));
  }
  lines.push('Leave out --out to receive into a new folder named after the package.');
  return new CliFailure('uploadFailed', lines.join('\n'));
}

/** One line of where a download stands, for logs. */
export function receiveLine(p: DownloadProgress): string {
  const percent = p.totalBytes === 0 ? 100 : Math.floor((p.receivedBytes / p.totalBytes) * 100);
  const parts = [
    `${percent}%`,
    `${formatSize(p.receivedBytes)} of ${formatSize(p.totalBytes)}`,
    `${p.completedFiles} of ${p.totalFiles} files`,
  ];
  if (p.rate > 0) parts.push(formatRate(p.rate));
  return parts.join(', ');
}
