import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { preflightLimits, type PreflightProbe } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import { ApiError } from '../../http/errors';
import { decideRange } from '../../storage/byte-range';
import {
  StorageError,
  type ByteRange,
  type StorageDriver,
  type WriteAdmission,
} from '../../storage';
import { DEFAULT_PACKAGE_CONTAINER, ensurePackageContainer } from '../packages/package-storage';

/**
 * Probes live under this prefix of the packages' container, then the user's id: a name no
 * package object can take (package objects start with their slug's prefix), and one that says
 * whose probe it is, so removing one needs no table.
 */
const PROBE_PREFIX = 'preflight/';

const probesOf = (userId: number) => `${PROBE_PREFIX}${userId}/`;

function probeKey(userId: number, id: string): string {
  return `${probesOf(userId)}${id}`;
}

/**
 * A new probe for the caller: a signed URL to PUT at most `probeBytes`, which the caller reads
 * back with `readProbe`. The URL is the caller's alone (the key carries their id) and expires
 * within minutes. A probe whose removal never came (a tab closed mid-check) is removed with the
 * caller's next one, or swept once its grant has ended (`sweepProbes`).
 */
export async function createProbe(ctx: AppContext, principal: Principal): Promise<PreflightProbe> {
  const container = await ensurePackageContainer(ctx.storage);
  await ctx.storage.deletePrefix(container, probesOf(principal.user.id));
  const id = randomBytes(16).toString('hex');
  const key = probeKey(principal.user.id, id);
  const expires = Math.floor(Date.now() / 1000) + preflightLimits.grantSeconds;
  const upload = ctx.storage.signTempUrl({ method: 'PUT', container, key, expires });
  return { id, size: preflightLimits.probeBytes, upload_url: upload.url, expires };
}

/** The caller's probe, or the range of it that `rangeHeader` asks. */
export type ProbeRead =
  | {
      readonly kind: 'bytes';
      /** Whether a range was asked and is what `range` holds (206), rather than the whole. */
      readonly partial: boolean;
      readonly range: ByteRange;
      readonly size: number;
      readonly body: Readable;
    }
  | { readonly kind: 'unsatisfiable'; readonly size: number };

/**
 * Reads the caller's probe from storage for the API to serve: the check's ranged download goes
 * through the server, because a storage link to bytes a user chose could be shown by a browser
 * on the app's origin. Another person's probe id names the caller's own, absent, probe: 404.
 */
export async function readProbe(
  ctx: AppContext,
  principal: Principal,
  id: string,
  rangeHeader: string | undefined,
): Promise<ProbeRead> {
  const container = await ensurePackageContainer(ctx.storage);
  const location = { container, key: probeKey(principal.user.id, id) };
  const info = await ctx.storage.head(location);
  if (!info) throw ApiError.notFound();
  const size = info.sizeBytes;
  const decision = decideRange(rangeHeader, size);
  if (decision.kind === 'unsatisfiable') return { kind: 'unsatisfiable', size };
  const range = decision.kind === 'partial' ? decision.range : { offset: 0, length: size };
  try {
    const body = await ctx.storage.read(location, range, { ifMatch: info.etag });
    return { kind: 'bytes', partial: decision.kind === 'partial', range, size, body };
  } catch (error) {
    // Removed or replaced since the HEAD (a check in another tab): as if never there.
    if (error instanceof StorageError && error.code !== 'unavailable') throw ApiError.notFound();
    throw error;
  }
}

/** Removes the caller's probe; false when it was not there (already removed, or expired). */
export async function removeProbe(
  ctx: AppContext,
  principal: Principal,
  id: string,
): Promise<{ removed: boolean }> {
  const container = await ensurePackageContainer(ctx.storage);
  const result = await ctx.storage.deleteObject({
    container,
    key: probeKey(principal.user.id, id),
  });
  return { removed: result.deleted > 0 };
}

/**
 * Removes every probe stored longer ago than a grant lasts: its upload URL has ended, so it can
 * no longer change, and its check is long over. Run by the object sweeper on every node (a probe
 * two nodes remove at once is removed once). Answers how many it removed.
 */
export async function sweepProbes(storage: StorageDriver, now = Date.now()): Promise<number> {
  // Not ensured: a sweep writes nothing (the volume may be full), and a container never made
  // lists as empty.
  const container = DEFAULT_PACKAGE_CONTAINER;
  const storedBefore = now - preflightLimits.grantSeconds * 1000;
  let swept = 0;
  for await (const object of storage.listObjects(container, PROBE_PREFIX)) {
    const location = { container, key: object.key };
    const info = await storage.head(location);
    if (!info || info.lastModified.getTime() > storedBefore) continue;
    swept += (await storage.deleteObject(location)).deleted;
  }
  return swept;
}

/**
 * What the embedded store lets a probe's grant write: the probe's size and no more, and only
 * while the person's stored probes stay within `probesPerUser`, however many grants they hold,
 * so a probe URL cannot be used to store anything else or much of it. Null for other objects
 * (not the probes' to bound).
 */
export function probeWriteAdmission(key: string): WriteAdmission | null {
  if (!key.startsWith(PROBE_PREFIX)) return null;
  const probe = /^preflight\/(\d+)\/[0-9a-f]{32}$/.exec(key);
  if (!probe) return { refused: 'not a probe of the pre-flight check' };
  const { probeBytes, probesPerUser } = preflightLimits;
  return {
    maxBytes: probeBytes,
    budget: {
      prefix: probesOf(Number(probe[1])),
      bytes: probesPerUser * probeBytes,
      objects: probesPerUser,
    },
  };
}
