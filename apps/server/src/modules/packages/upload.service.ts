import type { z } from 'zod';
import {
  sendMessages,
  type BulkResponse,
  type bulkRequest,
  type sloRequest,
  type updateFilesRequest,
  type updateSlabFileRequest,
} from '@filerunner/protocol';
import type { PackageRow } from '../../db/rows';
import type { AppContext } from '../../context';
import type { Database } from '../../db/client';
import { ApiError } from '../../http/errors';
import {
  parseSegmentPath,
  StorageError,
  type ObjectInfo,
  type ObjectLocation,
  type StorageDriver,
} from '../../storage';
import { fileObjectName } from './object-names';
import { assertObjectsDeclared, assertPlanDeclared } from './bulk-plan';
import { PackageDeclaration } from './declared-objects';
import {
  declaredFilesOf,
  intendedFilesByPath,
  markStored,
  packageStatusForShare,
} from './packages.repository';

/**
 * How long upload grants (the FormPosts and the PUTs of the plan's objects) work. Storage
 * checks a grant when a request starts, so a long upload of one object outlives it; the engine
 * asks `bulk` again for fresh grants before they run out, which works while the package is
 * uploading. Short, because a grant cannot be revoked: on Swift a grant still valid after the
 * package is sent could replace its objects (downloads then fail on the etag check rather than
 * serve the new bytes), so the shorter the grant, the shorter that window.
 */
const UPLOAD_GRANT_SECONDS = 3600;
/** HEADs run this many at a time: enough to hide storage latency, few enough to be polite. */
const HEAD_CONCURRENCY = 16;

const refuse = (field: string, message: string) => ApiError.fields({ [field]: [message] });

function assertUploading(pkg: PackageRow): void {
  if (pkg.status !== 'uploading') throw refuse('detail', sendMessages.notUploading);
}

/**
 * Checks again, inside the transaction that records files, that the package is still uploading,
 * under a share lock on its row: finalising takes that row for update, so a report racing with
 * the send waits for it and is then refused, and a sent package's file list never changes.
 */
async function assertStillUploading(tx: Database, pkg: PackageRow): Promise<void> {
  if ((await packageStatusForShare(tx, pkg.id)) !== 'uploading') {
    throw refuse('detail', sendMessages.notUploading);
  }
}

/**
 * Where an object the engine reports lives. It must be in the package's container under the
 * package's prefix, so a sender can only claim objects of their own upload.
 */
function objectOfPackage(pkg: PackageRow, objectPath: string): ObjectLocation {
  let location: ObjectLocation;
  try {
    location = objectPath.startsWith('/')
      ? parseSegmentPath(objectPath)
      : { container: pkg.container, key: objectPath };
  } catch {
    throw refuse('object_path', sendMessages.outsidePackage);
  }
  const key = location.key;
  if (
    location.container !== pkg.container ||
    !key.startsWith(pkg.objectPrefix) ||
    key.length === pkg.objectPrefix.length ||
    key.split('/').some((s) => s === '..' || s === '.')
  ) {
    throw refuse('object_path', sendMessages.outsidePackage);
  }
  return location;
}

/** The package's intended files by user path; unknown paths are refused. */
async function intendedFiles(ctx: AppContext, pkg: PackageRow, paths: string[]) {
  const rows = await intendedFilesByPath(ctx.db, pkg.id, paths);
  const byPath = new Map(rows.map((r) => [r.userPath, r]));
  for (const path of paths) {
    if (!byPath.has(path)) throw refuse('user_path', `${sendMessages.unknownFile} (${path})`);
  }
  return byPath;
}

async function headAll(
  storage: StorageDriver,
  locations: ObjectLocation[],
): Promise<(ObjectInfo | null)[]> {
  const results: (ObjectInfo | null)[] = new Array(locations.length);
  let next = 0;
  const worker = async () => {
    while (next < locations.length) {
      const i = next++;
      results[i] = await storage.head(locations[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(HEAD_CONCURRENCY, locations.length) }, worker));
  return results;
}

/**
 * Signs the grants of an upload plan: a FormPost per batch of small files (each file gets its
 * object name, sent back so the engine names its form parts), and a PUT TempURL for each object
 * the plan lists (slabs and large-file segments), none of them more than the declaration allows.
 * Over the whole prefix only a HEAD grant is signed, for the engine to check what an earlier run
 * stored, so on Swift (which cannot refuse an object by itself) a sender writes only names it
 * listed. The embedded store refuses undeclared objects by itself, so there the prefix grant is
 * still a PUT, for engines and tools that do not list their objects (decision 017).
 */
export async function signUploadGrants(
  ctx: AppContext,
  pkg: PackageRow,
  plan: z.infer<typeof bulkRequest>,
): Promise<BulkResponse> {
  assertUploading(pkg);
  const declared = await declaredFilesOf(ctx.db, pkg.id);
  assertPlanDeclared(plan, new Map(declared.map((f) => [f.userPath, f.size])));
  if (plan.objects.length > 0)
    assertObjectsDeclared(plan.objects, new PackageDeclaration(declared));
  const expires = Math.floor(Date.now() / 1000) + UPLOAD_GRANT_SECONDS;
  const fileData = plan.batches.map((batch) => {
    const maxFileSize = Math.max(1, ...batch.files.map((f) => f.size));
    const grant = ctx.storage.signFormPost({
      container: pkg.container,
      keyPrefix: pkg.objectPrefix,
      maxFileSize,
      maxFileCount: Math.max(1, batch.files.length),
      expires,
    });
    return {
      batch_name: batch.batch_name,
      url: grant.url,
      path: new URL(grant.url).pathname,
      alternative_urls: [...grant.alternativeUrls],
      redirect: grant.redirect,
      max_file_size: grant.maxFileSize,
      max_file_count: grant.maxFileCount,
      expires: grant.expires,
      sig: grant.signature,
      object_prefix: pkg.objectPrefix,
      cleaned_files: batch.files.map((f) => ({
        path: f.path,
        clean_filename: fileObjectName(f.path),
      })),
    };
  });
  const prefix = ctx.storage.signTempUrl({
    method: ctx.storage.kind === 'embedded' ? 'PUT' : 'HEAD',
    container: pkg.container,
    key: pkg.objectPrefix,
    prefixScope: true,
    expires,
  });
  const objects = plan.objects.map((object) => ({
    name: object.name,
    temp_url: ctx.storage.signTempUrl({
      method: 'PUT',
      container: pkg.container,
      key: `${pkg.objectPrefix}${object.name}`,
      expires,
    }).url,
  }));
  const swiftPath = `/${pkg.container}/${pkg.objectPrefix}`;
  return {
    bulk_data: { file_data: fileData },
    tempurl_data: {
      path: prefix.signedPath,
      container: pkg.container,
      temp_url: prefix.url,
      signature: prefix.signature,
      expires: prefix.expires,
      swift_endpoint: ctx.storage.accountUrl,
      swift_path: swiftPath,
      object_prefix: pkg.objectPrefix,
      alternative_urls: [...ctx.storage.alternativeAccountUrls],
      objects,
    },
  };
}

/**
 * Records files the engine uploaded whole (FormPost or PUT). Each object is checked in storage:
 * it must exist with the file's intended size and no expiry; its etag is taken from storage, not
 * the client. Swift's config strips X-Delete-At/After from PUTs, but a FormPost's x_delete_at /
 * x_delete_after fields are not signed and no setting strips them: the report refuses such an
 * object (the HEAD it makes anyway shows X-Delete-At) rather than clearing the expiry with a
 * POST, because Swift's POST replaces all of an object's metadata and would race with a grant
 * still able to write the object again; an honest engine never sets an expiry.
 * A file's xxh128 is the client's word (storage cannot compute it) and is kept as given; every
 * report sets it again, so a report without one clears it.
 */
export async function recordUploadedFiles(
  ctx: AppContext,
  pkg: PackageRow,
  input: z.infer<typeof updateFilesRequest>,
): Promise<{ updated: number }> {
  assertUploading(pkg);
  const files = await intendedFiles(
    ctx,
    pkg,
    input.files.map((f) => f.user_path),
  );
  const locations = input.files.map((f) => objectOfPackage(pkg, f.object_path));
  const infos = await headAll(ctx.storage, locations);
  const problems: string[] = [];
  input.files.forEach((f, i) => {
    const info = infos[i];
    const intended = files.get(f.user_path)!;
    if (!info) problems.push(`${f.user_path}: ${sendMessages.objectMissing}`);
    else if (info.sizeBytes !== intended.size || f.size_bytes !== intended.size) {
      problems.push(`${f.user_path}: ${sendMessages.sizeMismatch}`);
    } else if (info.deleteAt !== null) {
      problems.push(`${f.user_path}: ${sendMessages.objectExpires}`);
    }
  });
  if (problems.length)
    throw new ApiError(400, 'validation', {
      detail: sendMessages.updateFilesFailed,
      files: problems,
    });
  await ctx.db.transaction(async (tx) => {
    await assertStillUploading(tx, pkg);
    await markStored(
      tx,
      input.files.map((f, i) => ({
        id: files.get(f.user_path)!.id,
        objectKey: locations[i]!.key,
        etag: infos[i]!.etag,
        slabStart: null,
        xxh128: f.xxh128 ?? null,
      })),
    );
  });
  ctx.metrics.moved(
    'upload',
    input.files.length,
    input.files.reduce((sum, f) => sum + files.get(f.user_path)!.size, 0),
  );
  return { updated: input.files.length };
}

/**
 * Records a slab: one object holding many small files back to back. Every file's range must lie
 * inside the stored slab and be exactly the file's intended size.
 */
export async function recordSlab(
  ctx: AppContext,
  pkg: PackageRow,
  input: z.infer<typeof updateSlabFileRequest>,
): Promise<{ updated: number }> {
  assertUploading(pkg);
  const location = objectOfPackage(pkg, input.object_path);
  const files = await intendedFiles(
    ctx,
    pkg,
    input.files.map((f) => f.user_path),
  );
  const info = await ctx.storage.head(location);
  if (!info) throw refuse('object_path', sendMessages.objectMissing);
  if (info.sizeBytes !== input.size) throw refuse('size', sendMessages.sizeMismatch);
  if (info.deleteAt !== null) throw refuse('object_path', sendMessages.objectExpires);
  for (const f of input.files) {
    const intended = files.get(f.user_path)!;
    if (f.end_byte > info.sizeBytes || f.end_byte - f.start_byte !== intended.size) {
      throw refuse('files', `${sendMessages.slabRange} (${f.user_path})`);
    }
  }
  await ctx.db.transaction(async (tx) => {
    await assertStillUploading(tx, pkg);
    await markStored(
      tx,
      input.files.map((f) => ({
        id: files.get(f.user_path)!.id,
        objectKey: location.key,
        etag: info.etag,
        slabStart: f.start_byte,
        xxh128: f.xxh128 ?? null,
      })),
    );
  });
  ctx.metrics.moved(
    'upload',
    input.files.length,
    input.files.reduce((sum, f) => sum + (f.end_byte - f.start_byte), 0),
  );
  return { updated: input.files.length };
}

/**
 * Joins a large file's segments into a manifest (an SLO) named after the file, under the
 * package's prefix. Storage checks each segment's etag and size; the joined size must be the
 * file's intended size.
 */
export async function recordLargeFile(
  ctx: AppContext,
  pkg: PackageRow,
  input: z.infer<typeof sloRequest>,
): Promise<{ object_path: string; etag: string }> {
  assertUploading(pkg);
  const files = await intendedFiles(ctx, pkg, [input.upload_filename]);
  const intended = files.get(input.upload_filename)!;
  const segments = input.slo_content.map((s) => ({
    object: objectOfPackage(pkg, s.path),
    etag: s.etag.replace(/"/g, ''),
    sizeBytes: s.size_bytes,
  }));
  // One segment listed twice would join its bytes twice: the file would be other bytes than
  // the sender's, of the right size. Paths are compared once resolved (two spellings, one key).
  const keys = new Set(segments.map((s) => s.object.key));
  if (keys.size !== segments.length) throw refuse('slo_content', sendMessages.duplicateSegment);
  const total = segments.reduce((sum, s) => sum + s.sizeBytes, 0);
  if (total !== intended.size || input.size !== intended.size) {
    throw refuse('size', sendMessages.sizeMismatch);
  }
  // A segment storage will delete by itself would cut the file once it goes. One HEAD per
  // segment (at most 250, each of at least a 250th of the file) finds them before joining.
  const heads = await headAll(
    ctx.storage,
    segments.map((s) => s.object),
  );
  if (heads.some((info) => info !== null && info.deleteAt !== null)) {
    throw refuse('slo_content', sendMessages.objectExpires);
  }
  const key = `${pkg.objectPrefix}${fileObjectName(input.upload_filename)}`;
  let manifest;
  try {
    manifest = await ctx.storage.putManifest({ container: pkg.container, key }, segments);
  } catch (error) {
    if (error instanceof StorageError && error.code === 'invalid_manifest') {
      throw new ApiError(400, 'validation', {
        detail: sendMessages.sloFailed,
        segments: error.problems.map(([path, reason]) => `${path}: ${reason}`),
      });
    }
    throw error;
  }
  if (manifest.sizeBytes !== intended.size) throw refuse('size', sendMessages.sizeMismatch);
  await ctx.db.transaction(async (tx) => {
    await assertStillUploading(tx, pkg);
    await markStored(tx, [
      {
        id: intended.id,
        objectKey: key,
        etag: manifest.etag,
        slabStart: null,
        xxh128: input.xxh128 ?? null,
      },
    ]);
  });
  ctx.metrics.moved('upload', 1, intended.size);
  return { object_path: `/${pkg.container}/${key}`, etag: manifest.etag };
}
