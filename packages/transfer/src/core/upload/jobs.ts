import type { ByteSource } from '../ports';
import type { FormPostBatch, LargeFile, Segment, Slab, UploadPlan } from './plan';

/**
 * One unit of work a worker takes: a FormPost batch (sent and reported), a slab (PUT and
 * reported), or one segment of a large file (PUT; the last one stored also reports the file).
 */
export type Job =
  | { kind: 'batch'; batch: FormPostBatch; files: ByteSource[]; bytes: number }
  | { kind: 'slab'; slab: Slab; files: ByteSource[]; bytes: number }
  | { kind: 'segment'; large: LargeFile; segment: Segment; files: ByteSource[]; bytes: number };

/**
 * The plan's work in the order workers take it: large files' segments first, so the longest
 * requests start early and the many short ones fill the gaps at the end, then slabs, then
 * batches.
 */
export function jobsOf(plan: UploadPlan): Job[] {
  const jobs: Job[] = [];
  for (const large of plan.largeFiles) {
    for (const segment of large.segments) {
      jobs.push({
        kind: 'segment',
        large,
        segment,
        files: [large.source],
        bytes: segment.end - segment.start,
      });
    }
  }
  for (const slab of plan.slabs) {
    const files = slab.entries.map((entry) => entry.source);
    jobs.push({ kind: 'slab', slab, files, bytes: sumSizes(files) });
  }
  for (const batch of plan.batches) {
    jobs.push({ kind: 'batch', batch, files: batch.files, bytes: batch.size });
  }
  return jobs;
}

function sumSizes(files: readonly ByteSource[]): number {
  return files.reduce((total, file) => total + file.size, 0);
}

/** Every file the plan sends, in plan order. */
export function sentFiles(plan: UploadPlan): ByteSource[] {
  return [
    ...plan.largeFiles.map((large) => large.source),
    ...plan.slabs.flatMap((slab) => slab.entries.map((entry) => entry.source)),
    ...plan.batches.flatMap((batch) => batch.files),
  ];
}

/** The create call's file fields for a plan: what the server will expect to be stored. */
export function intendedFilesOf(plan: UploadPlan) {
  const files = sentFiles(plan);
  return {
    expected_files: files.length,
    expected_size: sumSizes(files),
    intended_files: files.map((file) => ({ filename: file.path, size: file.size })),
  };
}
