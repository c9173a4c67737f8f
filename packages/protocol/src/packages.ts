import { z } from 'zod';
import { defineRoute } from './api/route';
import { int32Max, rowId, slugParam, text } from './api/fields';
import {
  fileFolderClash,
  packagePathMax,
  packagePathMessage,
  packagePathProblem,
} from './package-paths';

export {
  cleanObjectName,
  fileFolderClash,
  isPackagePath,
  packagePathProblem,
} from './package-paths';

/** Strings of the send screen and the upload calls. */
export const sendMessages = {
  selectContract: 'Please select a contract',
  selectRecipients: 'Please select some recipients',
  selectFiles: 'Please select some files',
  nameRequired: 'Please enter a name for the package',
  nameTooLong: 'The package name can be at most 255 characters',
  pinMobiles: 'Please add a mobile phone number for the highlighted users for PIN verification',
  createFailed: 'Sorry we could not create that package',
  invalidMobile: 'Invalid phone number',
  adHocNotAllowed: 'New recipients cannot be added in this contract.',
  recipientNotAllowed: 'You cannot send packages to this recipient.',
  duplicatePath: 'The same file path appears twice.',
  fileFolderClash: 'A file has the same path as a folder of other files.',
  badPath: packagePathMessage,
  expectedMismatch: 'The expected file count and size must match the intended files.',
  periodEndBeforeStart: 'The end of the access period cannot be before its start.',
  periodStartInPast: 'The access period cannot start in the past.',
  periodTooLong: 'The access period can be at most 15 days.',
  periodPastStorage:
    'The access period must end within 15 days from now: packages are stored for at most 15 days.',
  periodEndInPast: 'The access period cannot end in the past.',
  unknownStorageGroup: 'That storage location does not exist in this contract.',
  // The upload errors the engine shows.
  updateFilesFailed: 'Error updating package files',
  sloFailed: 'Error creating SLO',
  completeFailed: 'Uploads failed to complete',
  notAllFiles: 'Could not update all files',
  notUploading: 'This package has already been sent.',
  unknownFile: 'That file is not part of this package.',
  sizeMismatch: 'The stored object does not have the size of the file.',
  objectMissing: 'The object was not found in storage.',
  outsidePackage: 'Objects must be stored under the package’s prefix.',
  slabRange: 'Each file must lie inside the slab and have its own size.',
  tooManySegments: 'A large file can have at most 250 segments.',
  // What a grant may be asked for: the package's declared files, in the spec's batches.
  emptyBatch: 'A batch must hold at least one file.',
  batchTooLarge: 'A batch can hold at most 300 MB.',
  fileInTwoBatches: 'A file can be in one batch only.',
  undeclaredSize: 'The size must be the file’s declared size.',
  largeFilesTooLarge: 'large_file_total_size is more than the package’s declared files.',
  planTooLarge: 'The upload plan is longer than the package’s declared files need.',
  duplicateSegment: 'A segment can be listed only once in a large file.',
  // The objects a plan PUTs (slabs, segments), each granted by name.
  undeclaredObject: 'That object is not one of the package’s declared files.',
  objectOverAllowance: 'The object is larger than its declared file allows.',
  objectListedTwice: 'An object can be listed only once.',
  objectsBeyondDeclared:
    'The listed objects are more, or larger, than the package’s declared files.',
  // What finalise and the reports find in storage.
  objectExpires:
    'The stored object is set to be deleted by storage (X-Delete-At): upload it again without an expiry.',
  objectChanged: 'The stored object changed after it was reported: upload the file again.',
  objectTooLarge: 'The stored object is larger than the package declared.',
  storedBeyondDeclared: 'The package’s stored objects are larger than its declared files.',
  storageNotAsDeclared:
    'The package’s stored objects are not the files it declared and reported: it cannot be sent.',
  badIdempotencyKey: 'The Idempotency-Key header must be 1 to 200 visible ASCII characters.',
  idempotencyKeyReused:
    'This Idempotency-Key was already used for a different package: send a new key for a new package.',
  badXxh128: 'An xxh128 hash is 32 lowercase hexadecimal digits.',
} as const;

/** Package limits: names, access period, file counts, manifest sizes. */
export const packageLimits = {
  nameMax: 255,
  /** The longest access period, and how long a package is stored after upload at most. */
  accessPeriodMaxDays: 15,
  defaultAccessDays: 10,
  /** A start this far in the past still counts as "now": the picker's slots are 30 minutes. */
  startToleranceMinutes: 30,
  maxFiles: 100_000,
  maxPathLength: packagePathMax,
  maxSloSegments: 250,
  maxBatchFiles: 250,
  /** A FormPost batch, and so a slab, holds at most this many bytes (the spec's 300 MB). */
  maxBatchBytes: 300_000_000,
  /** The spec's max chunk size: a segment is no larger unless 250 of them cannot hold the file. */
  maxChunkBytes: 600_000_000,
} as const;

const DAY_MS = 86_400_000;

/** The latest end an access period chosen at `now` may have: the storage limit. */
export function accessPeriodLatestEnd(now: Date): Date {
  return new Date(now.getTime() + packageLimits.accessPeriodMaxDays * DAY_MS);
}

/** What is wrong with an access period, or null. */
export function accessPeriodProblem(
  validFrom: Date,
  validTo: Date,
  now = new Date(),
): { field: 'valid_from' | 'valid_to'; message: string } | null {
  if (validTo < validFrom) return { field: 'valid_to', message: sendMessages.periodEndBeforeStart };
  if (validFrom.getTime() < now.getTime() - packageLimits.startToleranceMinutes * 60_000) {
    return { field: 'valid_from', message: sendMessages.periodStartInPast };
  }
  if (validTo.getTime() - validFrom.getTime() > packageLimits.accessPeriodMaxDays * DAY_MS) {
    return { field: 'valid_to', message: sendMessages.periodTooLong };
  }
  // A package's objects are deleted 15 days after sending, whatever its period says: a later
  // start moves the whole period, so it must still end by then.
  const storedUntil = accessPeriodLatestEnd(now).getTime();
  if (validFrom.getTime() > storedUntil) {
    return { field: 'valid_from', message: sendMessages.periodPastStorage };
  }
  if (validTo.getTime() > storedUntil) {
    return { field: 'valid_to', message: sendMessages.periodPastStorage };
  }
  if (validTo <= now) return { field: 'valid_to', message: sendMessages.periodEndInPast };
  return null;
}

// A package path refuses NUL itself (a tar header cannot hold one either).
const userPath = z.string().superRefine((path, ctx) => {
  const problem = packagePathProblem(path);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
const byteCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const isoInstant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** A recipient of a new package: a contract user by id, or an ad-hoc address (negative or no id). */
export const packageRecipientInput = z.object({
  id: z
    .number()
    .int()
    .min(-int32Max - 1)
    .max(int32Max)
    .optional(),
  email: text().trim().toLowerCase().pipe(z.email()).optional(),
  mobile: text().trim().nullish(),
});

export const createPackageRequest = z
  .object({
    // Missing fields are parsed as empty (prefault) so they get the send screen's own message.
    contract: z
      .union(
        [text().trim().min(1, sendMessages.selectContract), rowId],
        sendMessages.selectContract,
      )
      .prefault(''),
    name: text(sendMessages.nameRequired)
      .trim()
      .min(1, sendMessages.nameRequired)
      .max(packageLimits.nameMax, sendMessages.nameTooLong)
      .prefault(''),
    message: text().max(10_000).default(''),
    pin_verify: z.boolean().default(false),
    recipients: z
      .array(packageRecipientInput, sendMessages.selectRecipients)
      .min(1, sendMessages.selectRecipients)
      .max(1000)
      .prefault([]),
    valid_from: isoInstant,
    valid_to: isoInstant,
    expected_files: z.number().int().min(0).max(int32Max).default(0),
    expected_size: byteCount.default(0),
    intended_files: z
      .array(z.object({ filename: userPath, size: byteCount }), sendMessages.selectFiles)
      .min(1, sendMessages.selectFiles)
      .max(packageLimits.maxFiles)
      .prefault([]),
    storage_app_group: rowId.nullish(),
  })
  .superRefine((input, ctx) => {
    const paths = new Set(input.intended_files.map((f) => f.filename));
    if (paths.size !== input.intended_files.length) {
      ctx.addIssue({
        code: 'custom',
        path: ['intended_files'],
        message: sendMessages.duplicatePath,
      });
    }
    const clash = fileFolderClash(paths);
    if (clash !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['intended_files'],
        message: `${sendMessages.fileFolderClash} (${clash})`,
      });
    }
    const total = input.intended_files.reduce((sum, f) => sum + f.size, 0);
    if (input.expected_files !== input.intended_files.length || input.expected_size !== total) {
      ctx.addIssue({
        code: 'custom',
        path: ['expected_files'],
        message: sendMessages.expectedMismatch,
      });
    }
  });
export type CreatePackageRequest = z.infer<typeof createPackageRequest>;

/**
 * An object the plan PUTs (a slab or a segment), named relative to the package's prefix, with
 * the bytes it will hold. The server signs a PUT for each one it finds declared.
 */
export const plannedObject = z.object({ name: text().min(1).max(2048), size: byteCount });

/**
 * The upload plan's batches, for which the server signs FormPost grants, and the objects it
 * PUTs, for which it signs one TempURL each.
 */
export const bulkRequest = z.object({
  batches: z
    .array(
      z.object({
        batch_name: text().max(200),
        files: z
          .array(z.object({ size: byteCount, path: userPath }))
          .max(packageLimits.maxBatchFiles),
      }),
    )
    .max(packageLimits.maxFiles),
  large_file_total_size: byteCount.default(0),
  /**
   * Every slab and segment still to PUT. The declaration bounds how many a package can have
   * (each file one object and at most 250 segments); the body's length is capped before this.
   */
  objects: z
    .array(plannedObject)
    .max(packageLimits.maxFiles * (1 + packageLimits.maxSloSegments))
    .default([]),
});
export type BulkRequest = z.infer<typeof bulkRequest>;

/**
 * A file's XXH128 (the hash ASC MHL records in film and TV delivery), 32 lowercase hex digits as
 * `xxhsum -H2` prints it. The engine hashes each file while it uploads it; optional, since an
 * engine may report a file before its hash is ready. The server keeps it, it does not check it.
 */
export const xxh128Hash = z.string().regex(/^[0-9a-f]{32}$/, sendMessages.badXxh128);

/** An object's place as the engine reports it: `/container/key`, or a key in the package's container. */
const objectPath = text().min(1).max(2048);

export const updateFilesRequest = z.object({
  files: z
    .array(
      z.object({
        etag: text().max(100).nullish(),
        object_path: objectPath,
        size_bytes: byteCount,
        user_path: userPath,
        xxh128: xxh128Hash.nullish(),
      }),
    )
    .min(1)
    .max(packageLimits.maxBatchFiles),
});

/** Files packed into one slab object; `end_byte` is exclusive, as in `Blob.slice(start, end)`. */
export const updateSlabFileRequest = z.object({
  object_path: objectPath,
  size: byteCount,
  files: z
    .array(
      z.object({
        user_path: userPath,
        start_byte: byteCount,
        end_byte: byteCount,
        xxh128: xxh128Hash.nullish(),
      }),
    )
    .min(1)
    .max(packageLimits.maxFiles),
});

export const sloRequest = z.object({
  upload_filename: userPath,
  size: byteCount,
  prefix: text().max(2048).optional(),
  session_id: text().max(200).optional(),
  /** The whole file's hash (not a segment's). */
  xxh128: xxh128Hash.nullish(),
  slo_content: z
    .array(z.object({ path: objectPath, etag: text().max(100), size_bytes: byteCount }))
    .min(1)
    .max(packageLimits.maxSloSegments, sendMessages.tooManySegments),
});

/**
 * Finalising a package. `force` sends it without the files that never arrived (the engine's
 * Complete action after failures, FORCE_COMPLETED); without it, missing files refuse the call.
 */
export const finaliseRequest = z.object({
  name: text().optional(),
  contract: z.union([text(), z.number()]).optional(),
  complete: z.literal(true),
  force: z.boolean().default(false),
});

/**
 * The `Idempotency-Key` of a create: visible ASCII, so a key survives every proxy unchanged. A
 * client sends one per package and the same one on every retry of that create.
 */
export const idempotencyKey = z
  .string()
  .regex(/^[\x21-\x7e]{1,200}$/, sendMessages.badIdempotencyKey);

export const packageStatusName = z.enum(['uploading', 'complete', 'force_completed']);
export type PackageStatusName = z.infer<typeof packageStatusName>;

/** A package as its sender sees it while and after sending. */
export const senderPackage = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  message: z.string(),
  status: packageStatusName,
  contract: z.object({ id: z.number(), slug: z.string(), name: z.string() }),
  sender: z.object({ name: z.string() }),
  date_sent: z.string().nullable(),
  valid_date: z.string(),
  expires_date: z.string(),
  bytes: z.number(),
  num_files: z.number(),
  pin_verified: z.boolean(),
  invalid_filenames: z.boolean(),
  recipients: z.array(
    z.object({
      id: z.number(),
      email: z.string(),
      name: z.string(),
      mobile_hint: z.string().nullable(),
    }),
  ),
  /** Storage hosts the engine may spread uploads over (the account URL on each). */
  storage_urls: z.array(z.string()),
  session_id: z.string(),
  /** Files that were intended but never stored (a force-completed package). */
  failed_files: z.array(z.string()).optional(),
});
export type SenderPackage = z.infer<typeof senderPackage>;

/** The finalise answer: the package as sent, with the files that never arrived (often none). */
export const finalisedPackage = senderPackage.extend({ failed_files: z.array(z.string()) });

export const formPostBatchGrant = z.object({
  batch_name: z.string(),
  /** The FormPost target (`url`) and its signed path. */
  url: z.string(),
  path: z.string(),
  alternative_urls: z.array(z.string()),
  redirect: z.string(),
  max_file_size: z.number(),
  max_file_count: z.number(),
  expires: z.number(),
  sig: z.string(),
  object_prefix: z.string(),
  /** Upload each file as a form part named by its clean_filename; the key is prefix + that name. */
  cleaned_files: z.array(z.object({ path: z.string(), clean_filename: z.string() })),
});
export type FormPostBatchGrant = z.infer<typeof formPostBatchGrant>;

export const bulkResponse = z.object({
  bulk_data: z.object({ file_data: z.array(formPostBatchGrant) }),
  /**
   * The grants for objects PUT under the prefix. `objects` holds one signed PUT URL per object
   * the plan listed, the only way to write one. The prefix fields (`temp_url`, `signature`,
   * `path`) sign the whole prefix for HEAD only, so the engine checks what an earlier run stored
   * (on the embedded store, which refuses undeclared objects by itself, the prefix grant is
   * still a PUT, for older engines; see decision 017).
   */
  tempurl_data: z.object({
    path: z.string(),
    container: z.string(),
    temp_url: z.string(),
    signature: z.string(),
    expires: z.number(),
    swift_endpoint: z.string(),
    swift_path: z.string(),
    object_prefix: z.string(),
    alternative_urls: z.array(z.string()),
    /** A PUT TempURL for each listed object, on `swift_endpoint` (swap the host for another). */
    objects: z.array(z.object({ name: z.string(), temp_url: z.string() })).default([]),
  }),
});
export type BulkResponse = z.infer<typeof bulkResponse>;

/** The answer of a report of whole files or of a slab: how many files it recorded. */
export const filesRecorded = z.object({ updated: z.number() });
export type FilesRecorded = z.infer<typeof filesRecorded>;

/** The answer of a large file's report: the manifest that joins its segments. */
export const largeFileRecorded = z.object({ object_path: z.string(), etag: z.string() });
export type LargeFileRecorded = z.infer<typeof largeFileRecorded>;

const packageParams = z.object({ slug: slugParam });
/** The upload calls name the contract and the package; both must be the caller's. */
const uploadParams = z.object({ contract: slugParam, package: slugParam });

/**
 * The sender's calls: create a package, get upload grants, report what landed, finalise. The
 * reports record the same object again when repeated, and finalising twice answers the first
 * result, so the engine retries them all.
 */
export const packageRoutes = {
  create: defineRoute({
    method: 'POST',
    path: '/packages/create/',
    summary: 'Create a package in state uploading, with its recipients and intended files',
    auth: 'user',
    body: createPackageRequest,
    status: 201,
    response: senderPackage,
    idempotencyKey: true,
    idempotent: true,
  }),
  bulk: defineRoute({
    method: 'POST',
    path: '/packages/:slug/bulk/',
    summary: 'Sign the upload grants of an upload plan (FormPost per batch, PUT per listed object)',
    auth: 'user',
    params: packageParams,
    body: bulkRequest,
    status: 200,
    response: bulkResponse,
    idempotent: true,
  }),
  updateFiles: defineRoute({
    method: 'POST',
    path: '/packages/:contract/:package/updatefiles/',
    summary: 'Record files uploaded whole, each checked in storage',
    auth: 'user',
    params: uploadParams,
    body: updateFilesRequest,
    status: 200,
    response: filesRecorded,
    idempotent: true,
    retryOn400: true,
    noTimeout: true,
  }),
  updateSlabFile: defineRoute({
    method: 'POST',
    path: '/packages/:contract/:package/updateslabfile/',
    summary: 'Record small files packed into one slab object',
    auth: 'user',
    params: uploadParams,
    body: updateSlabFileRequest,
    status: 200,
    response: filesRecorded,
    idempotent: true,
    retryOn400: true,
    noTimeout: true,
  }),
  slo: defineRoute({
    method: 'POST',
    path: '/packages/:contract/:package/slo/',
    summary: "Join a large file's segments into a manifest and record it",
    auth: 'user',
    params: uploadParams,
    body: sloRequest,
    status: 200,
    response: largeFileRecorded,
    idempotent: true,
    retryOn400: true,
    noTimeout: true,
  }),
  finalise: defineRoute({
    method: 'POST',
    path: '/packages/:contract/:package/update/',
    summary: 'Send the package: tell its recipients (force sends it without missing files)',
    auth: 'user',
    params: uploadParams,
    body: finaliseRequest,
    status: 200,
    response: finalisedPackage,
    idempotent: true,
  }),
};
