import type { FileDownloadGrant, PackageDownloadGrant } from '@filerunner/protocol';
import type { PackageRow, RecipientRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import type { Principal } from '../../http/auth';
import { newToken, tokenHash } from '../../http/secrets';
import { announcePackageDownloaded } from '../../realtime/announce';
import type { ByteRange } from '../../storage';
import { notifyContractWatchers } from '../activity/package-notifications';
import { assertMayDownload, packageNotFound } from './downloads.policy';
import {
  downloadNoticeFacts,
  findGrant,
  insertGrant,
  markRecipientComplete,
  markRecipientPartial,
  recordDelivery,
  storedFile,
  storedFileCount,
  storedFiles,
  type Delivery,
} from './downloads.repository';
import {
  contentTag,
  fileParts,
  packageTar,
  streamParts,
  tarMembers,
  tarParts,
  type BodyStream,
  type ServableFile,
} from './package-bytes';
import { displayName, senderName } from '../accounts/display-name';
import { findRecipientAccess } from '../recipient-access/recipient-access.repository';
import { mhlHostname } from '../mhl/package-mhl';
import { downloadName } from './download-name';
import type { CachedTar } from './package-tar-cache';

/** How long a download URL works; long enough for a slow, resumed, multi-gigabyte download. */
const GRANT_TTL_MS = 24 * 3600 * 1000;

/**
 * Issues a URL for the package's tar to a logged-in recipient who may download it now (see
 * `assertMayDownload`). The URL itself is the credential for 24 hours, so chunked and plain
 * browser downloads need no session; it stops working early if the package expires or the
 * recipient is removed.
 */
export async function grantPackageDownload(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  ip: string,
): Promise<PackageDownloadGrant> {
  return grantPackageDownloadTo(ctx, await recipientAccess(ctx, principal, slug), ip);
}

/**
 * As `grantPackageDownload`, for a recipient already found (an external link's key names one);
 * the download policy is checked here too.
 */
export async function grantPackageDownloadTo(
  ctx: AppContext,
  access: { pkg: PackageRow; recipient: RecipientRow },
  ip: string,
): Promise<PackageDownloadGrant> {
  assertMayDownload(access);
  const { pkg, recipient } = access;
  // Laid out from the rows as they are now, and kept for the ranged requests that follow.
  const { tar } = await laidOutTar(ctx, pkg);
  const filename = `${downloadName(pkg.name)}.tar`;
  const size = tar.layout.size;
  const token = await issueGrant(ctx, pkg, recipient, null, size, ip);
  return {
    filename,
    download_url: downloadUrl(ctx, token, filename),
    size,
    num_files: tar.files.length,
    mtime: tar.mtime,
    files: tarMembers(tar),
  };
}

/** As `grantPackageDownload`, for the one stored file at `userPath` (404 when there is none). */
export async function grantFileDownload(
  ctx: AppContext,
  principal: Principal,
  slug: string,
  userPath: string,
  ip: string,
): Promise<FileDownloadGrant> {
  return grantFileDownloadTo(ctx, await recipientAccess(ctx, principal, slug), userPath, ip);
}

/** As `grantFileDownload`, for a recipient already found; the download policy is checked here too. */
export async function grantFileDownloadTo(
  ctx: AppContext,
  access: { pkg: PackageRow; recipient: RecipientRow },
  userPath: string,
  ip: string,
): Promise<FileDownloadGrant> {
  assertMayDownload(access);
  const { pkg, recipient } = access;
  const file = await storedFile(ctx.db, pkg.id, { userPath });
  if (!file?.objectKey) throw packageNotFound();
  const filename = baseName(file.userPath);
  const token = await issueGrant(ctx, pkg, recipient, file.id, file.size, ip);
  return { filename, download_url: downloadUrl(ctx, token, filename), size: file.size };
}

/** A package's tar, or one of its files, ready to serve: what the headers need, and its bytes. */
export interface ServableDownload {
  readonly wholePackage: boolean;
  readonly size: number;
  readonly etag: string;
  readonly filename: string;
  readonly contentType: string;
  /**
   * Streams bytes `range` of the download (tar or file), reading storage as it is consumed.
   * Rejects (StorageError) when the first stored object cannot be opened.
   */
  body(range: ByteRange): Promise<BodyStream>;
  /** How many files' last bytes (an empty file: its place) lie in `range`, for the metrics. */
  filesEndingIn(range: ByteRange): number;
}

/** A grant checked and ready to serve, with whom its deliveries are recorded for. */
export interface OpenDownload extends ServableDownload {
  readonly grantId: number;
  readonly packageId: number;
  readonly recipientId: number;
}

/**
 * Opens the download a token grants, checking the package and recipient again as they are now.
 * 404 for an unknown or expired token, else the answers of `assertMayDownload`.
 */
export async function openDownload(ctx: AppContext, token: string): Promise<OpenDownload> {
  const found = await findGrant(ctx.db, tokenHash(token));
  if (!found || found.grant.expiresAt <= new Date()) throw packageNotFound();
  assertMayDownload(found);
  const { grant, pkg, recipient } = found;
  const common = { grantId: grant.id, packageId: pkg.id, recipientId: recipient.id };
  if (grant.fileId === null) {
    const hostname = mhlHostname(ctx.config.publicUrl);
    const laidOut = await ctx.packageTars.tarFor(pkg, hostname, grant.size, () =>
      layOutTar(ctx, pkg, hostname),
    );
    // The stored list cannot change after sending; if it somehow did, old offsets would lie.
    if (laidOut.tar.layout.size !== grant.size) throw packageNotFound();
    return { ...common, ...servableTar(ctx, pkg, laidOut) };
  }
  const file = await storedFile(ctx.db, pkg.id, { id: grant.fileId });
  if (!file?.objectKey || file.size !== grant.size) throw packageNotFound();
  return { ...common, ...servableFile(ctx, pkg, file as ServableFile) };
}

/** The package's tar as served, laid out with its content tag. */
export function servableTar(
  ctx: AppContext,
  pkg: PackageRow,
  { tar, etag }: CachedTar,
): ServableDownload {
  return {
    wholePackage: true,
    size: tar.layout.size,
    etag,
    filename: `${downloadName(pkg.name)}.tar`,
    contentType: 'application/x-tar',
    body: (range) => streamParts(ctx.storage, tarParts(pkg, tar, range), ctx.log),
    // The package's files only: the ascmhl members after them are ours, not sent files.
    filesEndingIn: (range) =>
      tar.layout.entries.slice(0, tar.files.length).filter((entry) => {
        const end = entry.dataOffset + entry.source.size;
        return end > range.offset && end <= range.offset + range.length;
      }).length,
  };
}

/** One stored file of the package as served, under its own name. */
export function servableFile(
  ctx: AppContext,
  pkg: PackageRow,
  file: ServableFile,
): ServableDownload {
  return {
    wholePackage: false,
    size: file.size,
    etag: contentTag(pkg, file.id, file.size, [file]),
    filename: baseName(file.userPath),
    contentType: 'application/octet-stream',
    body: (range) => streamParts(ctx.storage, fileParts(pkg, file, range), ctx.log),
    filesEndingIn: (range) => (range.offset + range.length === file.size ? 1 : 0),
  };
}

/**
 * Lays out the package's tar (its stored files in the deterministic layout, then its ASC MHL)
 * from its file rows as they are now, with its content tag.
 */
export async function layOutTar(
  ctx: AppContext,
  pkg: PackageRow,
  hostname = mhlHostname(ctx.config.publicUrl),
): Promise<CachedTar> {
  const tar = await packageTar(pkg, await storedFiles(ctx.db, pkg.id), hostname);
  return { tar, etag: contentTag(pkg, null, tar.layout.size, tar.files, tar.written) };
}

/**
 * The package's laid-out tar as this node holds it (laid out and kept when none is held). For
 * what needs the layout without a grant naming a size: the sender's copy, the hash list, the
 * receipt and the download history. A sent package's files do not change, so the held tar is
 * the one its downloads were served from, and a package of ten thousand files is not laid out
 * again for each of them.
 */
export function heldTar(ctx: AppContext, pkg: PackageRow): Promise<CachedTar> {
  const hostname = mhlHostname(ctx.config.publicUrl);
  return ctx.packageTars.tarFor(pkg, hostname, null, () => layOutTar(ctx, pkg, hostname));
}

/**
 * As `layOutTar`, and kept in the node's cache of tars (replacing what it held for the package),
 * so a grant made now serves its ranged requests from the rows read now.
 */
export async function laidOutTar(ctx: AppContext, pkg: PackageRow): Promise<CachedTar> {
  const hostname = mhlHostname(ctx.config.publicUrl);
  const laidOut = await layOutTar(ctx, pkg, hostname);
  ctx.packageTars.put(pkg, hostname, laidOut);
  return laidOut;
}

/**
 * Records one response of a download: its bytes, and when it was delivered whole, its range.
 * When that completes the download (every byte delivered, over any number of responses), the
 * recipient becomes 'complete' (a single file counts only when it is the package's only file)
 * and, the first time, the contract's notification list hears of it; otherwise the recipient is
 * at least 'partial'. All in one transaction, so a mail leaves only with the record.
 */
export async function recordDownload(
  ctx: AppContext,
  download: OpenDownload,
  delivery: Delivery,
): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const { complete, started } = await recordDelivery(
      tx,
      { id: download.grantId, recipientId: download.recipientId, size: download.size },
      delivery,
    );
    // The sender's open history shows a download when it starts and when it is whole, not at
    // every chunk between (a record continued but not finished changes only its figures).
    if (started || complete) await announcePackageDownloaded(tx, download.packageId);
    const whole =
      complete && (download.wholePackage || (await storedFileCount(tx, download.packageId)) === 1);
    if (!whole) {
      if (delivery.bytes > 0) await markRecipientPartial(tx, download.recipientId);
      return;
    }
    await markDownloadedWhole(ctx, tx, download.packageId, download.recipientId);
  });
}

/**
 * The recipient has every byte of the package: 'complete', and the first time, the contract's
 * notification list hears of it. In the caller's transaction, so a mail leaves only with it.
 */
export async function markDownloadedWhole(
  ctx: AppContext,
  tx: Database,
  packageId: number,
  recipientId: number,
): Promise<void> {
  if (!(await markRecipientComplete(tx, recipientId))) return;
  const facts = await downloadNoticeFacts(tx, packageId, recipientId);
  if (!facts) return;
  const who = facts.recipient.user ? displayName(facts.recipient.user) : facts.recipient.email;
  await notifyContractWatchers(tx, ctx.config, facts.contract, 'downloaded', {
    name: facts.pkg.name,
    senderName: senderName(facts.sender),
    detail: `${who} downloaded it.`,
  });
}

async function recipientAccess(
  ctx: AppContext,
  principal: Principal,
  slug: string,
): Promise<{ pkg: PackageRow; recipient: RecipientRow }> {
  const access = await findRecipientAccess(ctx.db, slug, { userId: principal.user.id });
  assertMayDownload(access);
  return access;
}

async function issueGrant(
  ctx: AppContext,
  pkg: PackageRow,
  recipient: RecipientRow,
  fileId: number | null,
  size: number,
  ip: string,
): Promise<string> {
  const token = newToken();
  await insertGrant(ctx.db, {
    tokenHash: tokenHash(token),
    packageId: pkg.id,
    recipientId: recipient.id,
    fileId,
    size,
    ip,
    expiresAt: new Date(Date.now() + GRANT_TTL_MS),
  });
  return token;
}

function downloadUrl(ctx: AppContext, token: string, filename: string): string {
  return `${ctx.config.publicUrl}/api/downloads/${token}/${encodeURIComponent(filename)}`;
}

export function baseName(userPath: string): string {
  return userPath.slice(userPath.lastIndexOf('/') + 1);
}
