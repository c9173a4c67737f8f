import { packageLimits, sendMessages, type BulkRequest } from '@filerunner/protocol';
import { ApiError } from '../../http/errors';

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
 * The longest `bulk` body the declared files can need: each file's path (escaped as `\\uXXXX`
 * at worst) with its size and a batch of its own around it, and room for the rest. A longer body
 * names something the package did not declare, so it is refused before it is read.
 */
export function planBodyAllowance(declared: { files: number; pathUnits: number }): number {
  return 1024 + declared.files * 300 + declared.pathUnits * 6;
}
