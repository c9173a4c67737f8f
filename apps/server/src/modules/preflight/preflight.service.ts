import { randomBytes } from 'node:crypto';
import { preflightLimits, type PreflightProbe } from '@filerunner/protocol';
import type { AppContext } from '../../context';
import type { Principal } from '../../http/auth';
import type { WriteAdmission } from '../../storage';
import { ensurePackageContainer } from '../packages/package-storage';

/**
 * Probes live under this prefix of the packages' container, then the user's id: a name no
 * package object can take (package objects start with their slug's prefix), and one that says
 * whose probe it is, so removing one needs no table.
 */
const PROBE_PREFIX = 'preflight/';

function probeKey(userId: number, id: string): string {
  return `${PROBE_PREFIX}${userId}/${id}`;
}

/**
 * A new probe for the caller: signed URLs to PUT at most `probeBytes` and to read them back.
 * The URLs are the caller's alone (the key carries their id) and expire within minutes. A probe
 * whose removal never came (a tab closed mid-check) is removed with the caller's next one, so a
 * person leaves at most one probe behind.
 */
export async function createProbe(ctx: AppContext, principal: Principal): Promise<PreflightProbe> {
  const container = await ensurePackageContainer(ctx.storage);
  await ctx.storage.deletePrefix(container, `${PROBE_PREFIX}${principal.user.id}/`);
  const id = randomBytes(16).toString('hex');
  const key = probeKey(principal.user.id, id);
  const expires = Math.floor(Date.now() / 1000) + preflightLimits.grantSeconds;
  const upload = ctx.storage.signTempUrl({ method: 'PUT', container, key, expires });
  const download = ctx.storage.signTempUrl({ method: 'GET', container, key, expires });
  return {
    id,
    size: preflightLimits.probeBytes,
    upload_url: upload.url,
    download_url: download.url,
    expires,
  };
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
 * What the embedded store lets a probe's grant write: the probe's size and no more, so a probe
 * URL cannot be used to store anything else. Null for other objects (not the probes' to bound).
 */
export function probeWriteAdmission(key: string): WriteAdmission | null {
  if (!key.startsWith(PROBE_PREFIX)) return null;
  return /^preflight\/\d+\/[0-9a-f]{32}$/.test(key)
    ? { maxBytes: preflightLimits.probeBytes }
    : { refused: 'not a probe of the pre-flight check' };
}
