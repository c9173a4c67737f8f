import {
  api,
  filenameProblem,
  formatRate,
  formatSize,
  pathOf,
  preflightLimits,
  safeFilename,
  type FilesystemConstraints,
  type PreflightProbe,
} from '@filerunner/protocol';
import type { LatencyResult } from '../latency/latency-check';

/** A name in the chosen folder that the product refuses, and one it would take instead. */
export interface RefusedName {
  /** Its path inside the folder, '/'-separated. */
  readonly path: string;
  readonly reason: string;
  /** A name close to it that meets the constraints; null when none could be made. */
  readonly suggestion: string | null;
}

export interface NamesCheck {
  readonly folder: string;
  /** Files and folders whose names were checked. */
  readonly checked: number;
  readonly refused: readonly RefusedName[];
  /** The folder held more than `MAX_NAMES_CHECKED` entries: the rest were not looked at. */
  readonly truncated: boolean;
}

/** A folder of a whole project stays quick to check; beyond this the check says it stopped. */
export const MAX_NAMES_CHECKED = 10_000;

/** Folders that iterate their entries (Chromium's directory handles; TypeScript lacks them). */
type IterableDirectory = FileSystemDirectoryHandle & {
  entries(): AsyncIterable<[string, FileSystemHandle]>;
};

/**
 * Every file and folder name under `folder` checked against the constraints, as a recipient's
 * download of them would be: each refused one with the reason and a safe name to rename it to.
 */
export async function checkFolderNames(
  folder: FileSystemDirectoryHandle,
  constraints: FilesystemConstraints,
): Promise<NamesCheck> {
  const refused: RefusedName[] = [];
  let checked = 0;
  let truncated = false;
  const walk = async (directory: FileSystemDirectoryHandle, prefix: string): Promise<void> => {
    for await (const [name, handle] of (directory as IterableDirectory).entries()) {
      if (checked >= MAX_NAMES_CHECKED) {
        truncated = true;
        return;
      }
      checked++;
      const path = prefix + name;
      const reason = filenameProblem(name, constraints);
      if (reason) refused.push({ path, reason, suggestion: safeFilename(name, constraints) });
      if (handle.kind === 'directory') {
        await walk(handle as FileSystemDirectoryHandle, `${path}/`);
      }
    }
  };
  await walk(folder, '');
  refused.sort((a, b) => a.path.localeCompare(b.path));
  return { folder: folder.name, checked, refused, truncated };
}

/** How the probe's round trip went: each step's time, or where it failed. */
export interface RoundTrip {
  readonly ok: boolean;
  readonly bytes: number;
  readonly uploadMs: number | null;
  readonly downloadMs: number | null;
  /** The ranged read answered 206 with exactly the bytes stored there. */
  readonly rangeVerified: boolean;
  readonly removed: boolean;
  /** The storage host the probe went to. */
  readonly host: string | null;
  readonly error: string | null;
}

export interface ProbeCalls {
  create(): Promise<PreflightProbe>;
  remove(id: string): Promise<{ removed: boolean }>;
}

/** Where the page reads a probe back: the API's `readProbe`, with the session. */
export function probeReadUrl(id: string, apiBase = '/api'): string {
  return `${apiBase}${pathOf(api.preflight.readProbe, { id })}`;
}

/**
 * Stores a probe of random bytes in the person's storage with its signed PUT, reads a range of
 * it back (by Range, the way downloads read), compares the bytes, and has the server remove it.
 * The probe is removed whatever happened after it was made.
 */
export async function storageRoundTrip(
  calls: ProbeCalls,
  { fetch = globalThis.fetch, now = () => performance.now(), apiBase = '/api' } = {},
): Promise<RoundTrip> {
  const result = {
    ok: false,
    bytes: preflightLimits.probeBytes,
    uploadMs: null as number | null,
    downloadMs: null as number | null,
    rangeVerified: false,
    removed: false,
    host: null as string | null,
    error: null as string | null,
  };
  let probe: PreflightProbe;
  try {
    probe = await calls.create();
  } catch (error) {
    return { ...result, error: `The check could not start: ${messageOf(error)}` };
  }
  result.host = new URL(probe.upload_url).host;
  try {
    const bytes = randomBytes(probe.size);
    let start = now();
    const put = await fetch(probe.upload_url, { method: 'PUT', body: bytes, credentials: 'omit' });
    if (!put.ok) throw new Error(`storage refused the upload (HTTP ${put.status})`);
    result.uploadMs = Math.round(now() - start);

    const { rangeOffset, rangeLength } = preflightLimits;
    start = now();
    // Read back through the API, which reads storage: there is no storage link to bytes a
    // person chose, since a browser could be made to show them on the app's origin (issue 38).
    // The time still covers storage's ranged read, plus one hop through the server.
    const get = await fetch(probeReadUrl(probe.id, apiBase), {
      headers: { range: `bytes=${rangeOffset}-${rangeOffset + rangeLength - 1}` },
      credentials: 'same-origin',
      cache: 'no-store',
    });
    if (get.status !== 206) {
      throw new Error(`the ranged download was not answered (HTTP ${get.status})`);
    }
    const back = new Uint8Array(await get.arrayBuffer());
    result.downloadMs = Math.round(now() - start);
    const sent = bytes.subarray(rangeOffset, rangeOffset + rangeLength);
    result.rangeVerified = back.length === sent.length && back.every((b, i) => b === sent[i]);
    if (!result.rangeVerified) throw new Error('the bytes read back are not the ones stored');
  } catch (error) {
    result.error = `The round trip failed: ${messageOf(error)}`;
  } finally {
    try {
      result.removed = (await calls.remove(probe.id)).removed;
    } catch (error) {
      result.error ??= `The probe could not be removed: ${messageOf(error)}`;
    }
  }
  result.ok = result.error === null && result.removed;
  return result;
}

/** Random bytes (so no cache or compression between here and storage can fake the round trip). */
function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  // The browser hands out at most 64 KiB of randomness a call.
  for (let start = 0; start < size; start += 65_536) {
    crypto.getRandomValues(bytes.subarray(start, Math.min(size, start + 65_536)));
  }
  return bytes;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  const detail = (error as { data?: { detail?: unknown } } | null)?.data?.detail;
  return typeof detail === 'string' ? detail : String(error);
}

/** What the pre-flight check found, for the report. */
export interface PreflightResult {
  readonly at: Date;
  readonly user: string | null;
  readonly browser: string;
  readonly latency: readonly LatencyResult[];
  readonly names: NamesCheck | null;
  readonly roundTrip: RoundTrip;
}

/** The report a person copies or downloads for support: plain text, one finding a line. */
export function preflightReport(result: PreflightResult): string {
  const lines = [
    'FileRunner pre-flight check',
    `Date: ${result.at.toISOString()}`,
    `User: ${result.user ?? 'not signed in'}`,
    `Browser: ${result.browser}`,
    '',
    'Latency',
  ];
  for (const r of result.latency) {
    lines.push(
      `  ${r.group.name} · ${r.host.name}: ${r.success ? `${r.latency} ms` : 'No response'}`,
    );
  }
  if (result.latency.length === 0) lines.push('  No servers to time.');
  lines.push('', 'File names');
  const { names } = result;
  if (!names) {
    lines.push('  No folder chosen.');
  } else {
    lines.push(
      `  Folder "${names.folder}": ${names.checked} names checked, ${names.refused.length} refused${names.truncated ? ` (stopped after ${MAX_NAMES_CHECKED})` : ''}`,
    );
    for (const refused of names.refused) {
      lines.push(
        `  Refused: ${refused.path} (${refused.reason}); suggested name: ${refused.suggestion ?? 'none found'}`,
      );
    }
  }
  const trip = result.roundTrip;
  lines.push('', 'Storage round trip');
  lines.push(`  Storage: ${trip.host ?? 'unknown'}`);
  if (trip.uploadMs !== null) {
    lines.push(
      `  Upload: ${formatSize(trip.bytes)} in ${trip.uploadMs} ms (${formatRate((trip.bytes * 1000) / Math.max(1, trip.uploadMs))})`,
    );
  }
  if (trip.downloadMs !== null) {
    lines.push(
      `  Ranged download: ${formatSize(preflightLimits.rangeLength)} in ${trip.downloadMs} ms, ${trip.rangeVerified ? 'bytes verified' : 'bytes differ'}`,
    );
  }
  lines.push(`  Probe removed: ${trip.removed ? 'yes' : 'no'}`);
  lines.push(`  Result: ${trip.ok ? 'Succeeded' : `Failed (${trip.error ?? 'unknown'})`}`);
  return `${lines.join('\n')}\n`;
}
