import {
  isPackagePath,
  pathProblems,
  type BulkRequest,
  type FilesystemConstraints,
} from '@filerunner/protocol';
import type { ByteSource } from '../ports';
import { defaultUploadLimits, type UploadLimits } from '../upload-limits';
import { exclusionReason } from './exclusions';
import { packInOrder } from './packing';
import { planLargeFile } from './segments';
import { planSlabs } from './slabs';

/**
 * The upload plan: what goes where, decided before a byte moves. It is pure data over the
 * picked `ByteSource`s (no bytes are read or copied), made once per package and deterministic
 * for the same files and options, so a resumed upload plans the same objects again.
 *
 * Object names in the plan (`Slab.name`, `Segment.name`) are relative to the package's object
 * prefix, which arrives with the grants (`tempurl_data.object_prefix`); FormPost objects are
 * named by the server (`cleaned_files`) and mapped onto the plan with `formPostObjects`.
 */
export interface UploadPlan {
  /** The body of `POST /packages/{slug}/bulk/`. */
  bulk: BulkRequestBody;
  /** Small files sent by FormPost, one form per batch; names match `bulk.batches`. */
  batches: FormPostBatch[];
  /** Small files packed into tar-shaped slab objects (instead of batches when slabs are on). */
  slabs: Slab[];
  /** Files over the large-file threshold, each sent as segments joined by one SLO manifest. */
  largeFiles: LargeFile[];
  /** Files that are not sent at all, with the reason (see `ExclusionReason`). */
  excluded: ExcludedFile[];
  /**
   * Files whose names break the filename constraints. They are still in the plan (the Share
   * screen lets the user remove or keep them); recipients may have to download them as a .tar.
   */
  problemFiles: ProblemFile[];
  /** Files and bytes that will be sent (everything but `excluded`). */
  totalFiles: number;
  totalBytes: number;
}

/**
 * What `POST /packages/{slug}/bulk/` takes: batches of `{path, size}`, `large_file_total_size`,
 * and the objects the plan PUTs (`objects`: slab and segment names with their sizes), for each
 * of which the server signs a PUT of its own.
 */
export type BulkRequestBody = BulkRequest;

/** One FormPost: at most `maxBatchItems` files and `maxBatchBytes` bytes. */
export interface FormPostBatch {
  batch_name: string;
  files: ByteSource[];
  /** Sum of the files' sizes. */
  size: number;
}

/**
 * One slab object: a tar of small files. The object's bytes are, in order, each entry's header
 * blocks, its file's bytes and zero padding to 512, then two zero blocks; `slabParts` builds the
 * Blob parts when the slab is about to be sent (headers are not held for the whole plan).
 */
export interface Slab {
  /** Object name under the package prefix. */
  name: string;
  /** Bytes of the whole object (the `size` of `updateslabfile`). */
  size: number;
  entries: SlabEntry[];
}

export interface SlabEntry {
  source: ByteSource;
  /** Offset of the entry's first header block in the slab. */
  headerOffset: number;
  /** 512, or more when a PAX record carries a long or non-ASCII path. */
  headerLength: number;
  /** Where the file's bytes lie in the slab object, end exclusive (`updateslabfile`'s range). */
  start_byte: number;
  end_byte: number;
}

/**
 * A piece of a slab object's bytes, in order: header or padding bytes, or a slice of a picked
 * file. Both are `BlobPart`s, so the platform joins them with `new Blob(parts)` without a copy.
 */
export type SlabPart = Uint8Array<ArrayBuffer> | Blob;

/** A large file: contiguous segments, at most `maxSloSegments`, joined by one manifest (`slo`). */
export interface LargeFile {
  source: ByteSource;
  /** Every segment but the last is this long. */
  segmentSize: number;
  segments: Segment[];
}

export interface Segment {
  /** 0-based position in the manifest. */
  index: number;
  /** The file's bytes [start, end). */
  start: number;
  end: number;
  /** Object name under the package prefix. */
  name: string;
}

/**
 * Why a file is not sent: on the ignore list; an emoji in its path; a path no package can hold
 * (empty, '.' or '..' segments, NUL, broken Unicode: the server would refuse the package); or
 * too large for one manifest of the largest segments.
 */
export type ExclusionReason = 'ignored' | 'emoji' | 'invalid_path' | 'too_large';

export interface ExcludedFile {
  source: ByteSource;
  reason: ExclusionReason;
}

export interface ProblemFile {
  source: ByteSource;
  /** One message per offending path segment: `Invalid path segment "X": reason`. */
  problems: string[];
}

export interface PlanOptions {
  /**
   * Pack small files into slabs instead of FormPost batches: the hidden setting "always use
   * slab files" when on, else the contract's `settings.use_slab_files`.
   */
  useSlabFiles?: boolean;
  /** From `GET /filesystem/constraints/`, or the cached fallback; absent skips the check. */
  constraints?: FilesystemConstraints;
  limits?: UploadLimits;
}

/**
 * Plans the upload of the picked files. Files are taken in path order (not pick order), so the
 * same files picked again plan the same batches and objects: that is what lets a resumed upload
 * line up with what is already stored. Reads no bytes.
 */
export function planUpload(sources: readonly ByteSource[], options: PlanOptions = {}): UploadPlan {
  const limits = options.limits ?? defaultUploadLimits;
  const byPath = [...sources].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const excluded: ExcludedFile[] = [];
  const problemFiles: ProblemFile[] = [];
  const small: ByteSource[] = [];
  const largeFiles: LargeFile[] = [];
  for (const source of byPath) {
    const reason = isPackagePath(source.path) ? exclusionReason(source.path) : 'invalid_path';
    if (reason) {
      excluded.push({ source, reason });
      continue;
    }
    if (source.size <= limits.largeFileThreshold) {
      small.push(source);
    } else {
      const large = planLargeFile(source, limits);
      if (!large) {
        excluded.push({ source, reason: 'too_large' });
        continue;
      }
      largeFiles.push(large);
    }
    const problems = options.constraints ? pathProblems(source.path, options.constraints) : [];
    if (problems.length > 0) problemFiles.push({ source, problems });
  }
  const slabs = options.useSlabFiles ? planSlabs(small, limits) : [];
  const batches = options.useSlabFiles ? [] : planBatches(small, limits);
  const sent = [...small, ...largeFiles.map((large) => large.source)];
  return {
    bulk: {
      batches: batches.map((batch) => ({
        batch_name: batch.batch_name,
        files: batch.files.map((file) => ({ path: file.path, size: file.size })),
      })),
      large_file_total_size: sum(largeFiles.map((large) => large.source.size)),
      objects: plannedObjects(slabs, largeFiles),
    },
    batches,
    slabs,
    largeFiles,
    excluded,
    problemFiles,
    totalFiles: sent.length,
    totalBytes: sum(sent.map((source) => source.size)),
  };
}

/** The objects the plan PUTs, as `bulk` lists them: every slab and every segment. */
export function plannedObjects(
  slabs: readonly Slab[],
  largeFiles: readonly LargeFile[],
): BulkRequestBody['objects'] {
  return [
    ...slabs.map((slab) => ({ name: slab.name, size: slab.size })),
    ...largeFiles.flatMap((large) =>
      large.segments.map((s) => ({ name: s.name, size: s.end - s.start })),
    ),
  ];
}

function planBatches(small: readonly ByteSource[], limits: UploadLimits): FormPostBatch[] {
  const groups = packInOrder(small, (source) => source.size, {
    maxItems: limits.maxBatchItems,
    maxBytes: limits.maxBatchBytes,
  });
  return groups.map((files, i) => ({
    batch_name: `batch-${i + 1}`,
    files,
    size: sum(files.map((file) => file.size)),
  }));
}

function sum(values: readonly number[]): number {
  return values.reduce((total, value) => total + value, 0);
}
