import { z } from 'zod';

/** Strings of the send screen and the upload calls (spec 000 sections 5, 8; spec 001 section 8). */
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
  badPath: 'File paths are relative, use / between folders and have no empty or .. segments.',
  expectedMismatch: 'The expected file count and size must match the intended files.',
  periodEndBeforeStart: 'The end of the access period cannot be before its start.',
  periodStartInPast: 'The access period cannot start in the past.',
  periodTooLong: 'The access period can be at most 15 days.',
  periodEndInPast: 'The access period cannot end in the past.',
  unknownStorageGroup: 'That storage location does not exist in this contract.',
  // The upload errors the engine shows (spec 001 section 8).
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
} as const;

/** Package limits (spec 000 section 9, spec 001 section 9). */
export const packageLimits = {
  nameMax: 255,
  /** The longest access period, and how long a package is stored after upload at most. */
  accessPeriodMaxDays: 15,
  defaultAccessDays: 10,
  /** A start this far in the past still counts as "now": the picker's slots are 30 minutes. */
  startToleranceMinutes: 30,
  maxFiles: 100_000,
  maxPathLength: 4096,
  maxSloSegments: 250,
  maxBatchFiles: 250,
} as const;

const DAY_MS = 86_400_000;

/** What is wrong with an access period, or null (spec 000 section 5, "Access period"). */
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
  if (validTo <= now) return { field: 'valid_to', message: sendMessages.periodEndInPast };
  return null;
}

/**
 * A user path inside a package: relative, '/'-separated, no empty, '.' or '..' segments, no NUL
 * and no broken Unicode (a lone surrogate cannot be written as UTF-8 in a tar header).
 */
export function isPackagePath(path: string): boolean {
  if (!path || path.length > packageLimits.maxPathLength || path.includes('\0')) return false;
  // With the u flag a proper surrogate pair is one code point, so this finds only lone halves.
  if (/[\uD800-\uDFFF]/u.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** A path that is both a file and a folder of another file (`a` and `a/b`): one would be lost. */
export function fileFolderClash(paths: Iterable<string>): string | null {
  const files = new Set(paths);
  for (const path of files) {
    for (let slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
      if (files.has(path.slice(0, slash))) return path.slice(0, slash);
    }
  }
  return null;
}

const userPath = z.string().refine(isPackagePath, sendMessages.badPath);
/** A database row id (PostgreSQL integer), so an absurd number is a 400, not a query error. */
const rowId = z.number().int().positive().max(2_147_483_647);
const byteCount = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER);
const isoInstant = z.iso.datetime({ offset: true }).transform((s) => new Date(s));

/** A recipient of a new package: a contract user by id, or an ad-hoc address (negative or no id). */
export const packageRecipientInput = z.object({
  id: z.number().int().min(-2_147_483_648).max(2_147_483_647).optional(),
  email: z.string().trim().toLowerCase().pipe(z.email()).optional(),
  mobile: z.string().trim().nullish(),
});

export const createPackageRequest = z
  .object({
    // Missing fields are parsed as empty (prefault) so they get the send screen's own message.
    contract: z
      .union(
        [z.string().trim().min(1, sendMessages.selectContract), rowId],
        sendMessages.selectContract,
      )
      .prefault(''),
    name: z
      .string(sendMessages.nameRequired)
      .trim()
      .min(1, sendMessages.nameRequired)
      .max(packageLimits.nameMax, sendMessages.nameTooLong)
      .prefault(''),
    message: z.string().max(10_000).default(''),
    pin_verify: z.boolean().default(false),
    recipients: z
      .array(packageRecipientInput, sendMessages.selectRecipients)
      .min(1, sendMessages.selectRecipients)
      .max(1000)
      .prefault([]),
    valid_from: isoInstant,
    valid_to: isoInstant,
    expected_files: z.number().int().min(0).default(0),
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

/** The upload plan's batches, for which the server signs FormPost and TempURL grants. */
export const bulkRequest = z.object({
  batches: z
    .array(
      z.object({
        batch_name: z.string().max(200),
        files: z
          .array(z.object({ size: byteCount, path: userPath }))
          .max(packageLimits.maxBatchFiles),
      }),
    )
    .max(packageLimits.maxFiles),
  large_file_total_size: byteCount.default(0),
});

/** An object's place as the engine reports it: `/container/key`, or a key in the package's container. */
const objectPath = z.string().min(1).max(2048);

export const updateFilesRequest = z.object({
  files: z
    .array(
      z.object({
        etag: z.string().max(100).nullish(),
        object_path: objectPath,
        size_bytes: byteCount,
        user_path: userPath,
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
    .array(z.object({ user_path: userPath, start_byte: byteCount, end_byte: byteCount }))
    .min(1)
    .max(packageLimits.maxFiles),
});

export const sloRequest = z.object({
  upload_filename: userPath,
  size: byteCount,
  prefix: z.string().max(2048).optional(),
  session_id: z.string().max(200).optional(),
  slo_content: z
    .array(z.object({ path: objectPath, etag: z.string().max(100), size_bytes: byteCount }))
    .min(1)
    .max(packageLimits.maxSloSegments, sendMessages.tooManySegments),
});

/**
 * Finalising a package. `force` sends it without the files that never arrived (the engine's
 * Complete action after failures, FORCE_COMPLETED); without it, missing files refuse the call.
 */
export const finaliseRequest = z.object({
  name: z.string().optional(),
  contract: z.union([z.string(), z.number()]).optional(),
  complete: z.literal(true),
  force: z.boolean().default(false),
});

export type PackageStatusName = 'uploading' | 'complete' | 'force_completed';

/** A package as its sender sees it while and after sending. */
export interface SenderPackage {
  id: number;
  slug: string;
  name: string;
  message: string;
  status: PackageStatusName;
  contract: { id: number; slug: string; name: string };
  sender: { name: string };
  date_sent: string | null;
  valid_date: string;
  expires_date: string;
  bytes: number;
  num_files: number;
  pin_verified: boolean;
  invalid_filenames: boolean;
  recipients: { id: number; email: string; name: string; mobile_hint: string | null }[];
  /** Storage hosts the engine may spread uploads over (the account URL on each). */
  storage_urls: string[];
  session_id: string;
  /** Files that were intended but never stored (a force-completed package). */
  failed_files?: string[];
}

export interface FormPostBatchGrant {
  batch_name: string;
  /** The FormPost target (`url`) and its signed path. */
  url: string;
  path: string;
  alternative_urls: string[];
  redirect: string;
  max_file_size: number;
  max_file_count: number;
  expires: number;
  sig: string;
  object_prefix: string;
  /** Upload each file as a form part named by its clean_filename; the key is prefix + that name. */
  cleaned_files: { path: string; clean_filename: string }[];
}

export interface BulkResponse {
  bulk_data: { file_data: FormPostBatchGrant[] };
  /** A PUT grant for every key under the prefix: large-file segments and slab objects. */
  tempurl_data: {
    path: string;
    container: string;
    temp_url: string;
    signature: string;
    expires: number;
    swift_endpoint: string;
    swift_path: string;
    object_prefix: string;
    alternative_urls: string[];
  };
}
