import type { Clock, FileHasher, HttpClient, ResumeStore, SlabPacker } from '../ports';
import { FileReports } from './file-reports';
import { GrantKeeper } from './grant-keeper';
import { HashBook } from './hash-book';
import type { SendContext } from './job-sender';
import { sentFiles } from './jobs';
import { emptyLedger, ledgerFits, LedgerWriter, type UploadLedger } from './ledger';
import type { ApiTarget, CreatePackageFields, PackageApi } from './package-api';
import { plannedObjects, type SlabPart, type UploadPlan } from './plan';
import type { UploadTracker } from './progress';
import type { UploadQueue } from './queue';
import { Slots } from './slots';
import type { AbortThresholds } from './abort-policy';

/** The platform's parts: how to send requests, keep ledgers, hash files, tell time. */
export interface UploadPorts {
  http: HttpClient;
  /** `new Blob(parts)` of the platform, for slab objects. */
  joinBlob: (parts: SlabPart[]) => Blob;
  clock?: Clock;
  /** Where ledgers are kept for resuming; without one an interrupted upload starts again. */
  resumeStore?: ResumeStore<UploadLedger>;
  /** Hashes every file (xxh128) for its report; without one no hash is sent. */
  hasher?: FileHasher;
  /** Reads small slabs once, for their body and their files' hashes (see `SlabPacker`). */
  slabPacker?: SlabPacker;
  random?: () => number;
}

/** A package to fill: as `create` answered it, or as a ledger names it. */
export interface UploadPackage {
  slug: string;
  name: string;
  contract: { slug: string };
  session_id?: string;
}

export interface UploadOptions {
  api: ApiTarget;
  /** The plan of the files (`planUpload`); the same files must plan the same way to resume. */
  plan: UploadPlan;
  /**
   * The package to fill, or the Share screen's fields to create it with (its file fields,
   * `expected_files`, `expected_size` and `intended_files`, are filled from the plan).
   */
  package: UploadPackage | { create: Omit<CreatePackageFields, 'intended_files'> };
  /** Requests in flight at once: the contract's `number_of_upload_workers`, or 10. */
  workers?: number;
  /** Force-complete after a failure when at least one file arrived. */
  autoComplete?: boolean;
  /**
   * An API call refused with 401 pauses the upload (`pausedFor: 'session'`) instead of counting
   * against it: in a browser the session can come back (someone signs in again) and the upload
   * resumes; an API key that is refused stays refused, so the CLI leaves this off.
   */
  pauseWhenSignedOut?: boolean;
  abortThresholds?: Partial<AbortThresholds>;
  /** Uploads sharing a queue take turns; without one this upload starts at once. */
  queue?: UploadQueue;
  /**
   * Stops the upload the way a crash or a closed tab does: requests abort, nothing more is
   * written, `done` rejects. The ledger stays, so a later runner resumes.
   */
  signal?: AbortSignal;
}

export const DEFAULT_UPLOAD_WORKERS = 10;

/**
 * Bytes of packed slabs held in memory at once: a few slabs of small files being read or sent,
 * which is all the workers need to stay busy.
 */
const PACKED_BYTES_AT_ONCE = 128 * 1024 * 1024;
/**
 * Slabs read by the packer at once. Slabs read side by side finish together (the browser serves
 * their files in turn), so with four at once the first left after 0.8 s of a 2.8 s upload of
 * 10,000 small files; with two, after 0.4 s, and the server takes them while the next are read.
 */
const PACKING_AT_ONCE = 2;

/**
 * What the workers of an upload share, built once the package exists: the ledger (the stored
 * one when it belongs to this package and these files, else a new one, written at once so a
 * crash right after the create still finds the package), the grants and the hashes.
 */
export async function openUpload(
  pkg: UploadPackage,
  plan: UploadPlan,
  parts: {
    ports: UploadPorts;
    clock: Clock;
    random: () => number;
    api: PackageApi;
    tracker: UploadTracker;
    observe: (status: number) => void;
    /** Storage is full: the runner pauses the upload. */
    storageFull: () => void;
    /** Storage requests on their way at once. */
    workers: number;
  },
): Promise<SendContext> {
  const { ports, api } = parts;
  const sources = sentFiles(plan);
  const stored = await ports.resumeStore?.get(pkg.slug);
  const ledger = ledgerFits(stored, pkg.slug, sources)
    ? stored
    : emptyLedger(
        { slug: pkg.slug, name: pkg.name, contract: { slug: pkg.contract.slug } },
        sources,
      );
  const writer = new LedgerWriter(ledger, ports.resumeStore, parts.clock);
  await writer.flush();
  const confirmed = new Set<string>();
  const grants = new GrantKeeper(
    parts.clock,
    (body, signal) => api.bulk(pkg.slug, body, signal),
    // Grants for the batches and objects still to send (one stored by an earlier run may turn
    // out missing, so only what this run confirmed or reported is left out).
    () => ({
      ...plan.bulk,
      batches: plan.bulk.batches.filter((b) => !ledger.batches[b.batch_name]?.reported),
      objects: plannedObjects(
        plan.slabs.filter((slab) => !ledger.slabs[slab.name]?.reported),
        plan.largeFiles
          .filter((large) => !ledger.largeFiles[large.source.path]?.reported)
          .map((large) => ({
            ...large,
            segments: large.segments.filter((s) => !confirmed.has(s.name)),
          })),
      ),
    }),
  );
  let turn = Math.floor(parts.random() * 1024);
  return {
    http: ports.http,
    workers: new Slots(parts.workers),
    clock: parts.clock,
    api,
    pkg,
    grants,
    ledger: writer,
    tracker: parts.tracker,
    hashes: new HashBook(ports.hasher, writer),
    fileReports: new FileReports((rows, signal) => api.updateFiles(pkg, rows, signal)),
    joinBlob: ports.joinBlob,
    ...(ports.slabPacker ? { slabPacker: ports.slabPacker } : {}),
    packedBytes: new Slots(PACKED_BYTES_AT_ONCE),
    packing: new Slots(PACKING_AT_ONCE),
    observe: parts.observe,
    storageFull: parts.storageFull,
    random: parts.random,
    confirmed,
    reporting: new Map(),
    nextTurn: () => turn++,
  };
}
