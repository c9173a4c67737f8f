import { packageLimits, sendMessages, type BulkRequest } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';
import type { PackageDeclaration } from './declared-objects';

const refuse = (message: string) => ApiError.fields({ batches: [message] });

/**
 * Refuses an upload plan that asks grants for more than the package declared, before anything
 * is signed: each batch holds one or more declared files at their declared sizes, at most 300 MB
 * of them (250 items the schema already caps), no file is in two batches, and the large files
 * are no larger than the declared files left out of the batches. So every FormPost's
 * max_file_size and max_file_count, and the answer's size, follow from the declaration.
 */
export function assertPlanDeclared(plan: BulkRequest, declared: ReadonlyMap<string, number>): void {
  const batched = new Set<string>();
  let batchedBytes = 0;
  for (const batch of plan.batches) {
    if (batch.files.length === 0) throw refuse(`${sendMessages.emptyBatch} (${batch.batch_name})`);
    let bytes = 0;
    for (const file of batch.files) {
      const size = declared.get(file.path);
      if (size === undefined) throw refuse(`${sendMessages.unknownFile} (${file.path})`);
      if (file.size !== size) throw refuse(`${sendMessages.undeclaredSize} (${file.path})`);
      if (batched.has(file.path)) throw refuse(`${sendMessages.fileInTwoBatches} (${file.path})`);
      batched.add(file.path);
      bytes += size;
    }
    if (bytes > packageLimits.maxBatchBytes) {
      throw refuse(`${sendMessages.batchTooLarge} (${batch.batch_name})`);
    }
    batchedBytes += bytes;
  }
  let declaredBytes = 0;
  for (const size of declared.values()) declaredBytes += size;
  if (plan.large_file_total_size > declaredBytes - batchedBytes) {
    throw ApiError.fields({ large_file_total_size: [sendMessages.largeFilesTooLarge] });
  }
}

/**
 * Refuses a plan's objects (the slabs and segments it PUTs, each granted by name) beyond the
 * declaration: each is a name the declaration allows (`allowanceFor`), of no more bytes than
 * that allows, listed once, and together they are no more objects and bytes than the package
 * may hold. One call is checked on its own: a renewal lists what is still to send, and what a
 * sender writes across calls is held to the declaration when the package is sent.
 */
export function assertObjectsDeclared(
  objects: BulkRequest['objects'],
  declaration: PackageDeclaration,
): void {
  const seen = new Set<string>();
  let bytes = 0;
  for (const object of objects) {
    const allowance = declaration.allowanceFor(object.name);
    // A `.` or `..` segment would name another object once a client normalises the URL.
    const dotted = object.name.split('/').some((s) => s === '.' || s === '..');
    if ('refused' in allowance || dotted) {
      throw ApiError.fields({ objects: [`${sendMessages.undeclaredObject} (${object.name})`] });
    }
    if (object.size > allowance.maxBytes) {
      throw ApiError.fields({ objects: [`${sendMessages.objectOverAllowance} (${object.name})`] });
    }
    if (seen.has(object.name)) {
      throw ApiError.fields({ objects: [`${sendMessages.objectListedTwice} (${object.name})`] });
    }
    seen.add(object.name);
    bytes += object.size;
  }
  if (objects.length > declaration.objects || bytes > declaration.bytes) {
    throw ApiError.fields({ objects: [sendMessages.objectsBeyondDeclared] });
  }
}

/** The declared files' totals that bound a `bulk` body. */
export interface DeclaredPathTotals {
  files: number;
  pathUnits: number;
  /** Objects the declaration allows (`PackageDeclaration.objects`) ... */
  objects: number;
  /** ... and the path units of their names: each file's path once per object it may have. */
  objectPathUnits: number;
}

/**
 * The longest `bulk` body the declared files can need: each file's path (escaped as `\\uXXXX`
 * at worst) with its size and a batch of its own around it, each object the declaration allows
 * (a slab or segment name made of a file's path, a digest, a segment size and index) with its
 * size, and room for the rest. A longer body names something the package did not declare, so
 * it is refused before it is read.
 */
export function planBodyAllowance(declared: DeclaredPathTotals): number {
  return (
    1024 +
    declared.files * 300 +
    declared.pathUnits * 6 +
    declared.objects * 200 +
    declared.objectPathUnits * 6
  );
}
