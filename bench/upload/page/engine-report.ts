import type { Contract } from '@filerunner/protocol';
import type { UploadPlan } from '@filerunner/transfer';
import type { EngineRun } from './api';

/**
 * What an upload through the engine sent, as the bench reports it in the browser (page.ts) and
 * in Node (node-send.ts): the contract's settings it ran with, the storage objects of its plan
 * and the requests it made.
 */
export function engineSent(
  settings: Contract['settings'],
  plan: UploadPlan,
  requests: EngineRun['requests'],
): Omit<EngineRun, 'seconds' | 'files'> {
  return {
    workers: settings.number_of_upload_workers,
    slab_files: settings.use_slab_files,
    objects: {
      segments: plan.largeFiles.reduce((sum, l) => sum + l.segments.length, 0),
      slabs: plan.slabs.length,
      form_posts: plan.batches.length,
    },
    requests,
  };
}
