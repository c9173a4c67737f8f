import type { UploadProgress, UploadRecord, UploadStatus } from '@filerunner/transfer';

/** What a test changes of a record: progress figures and the record's other fields, flat. */
type RecordChanges = Partial<UploadProgress> & Partial<Omit<UploadRecord, 'progress' | 'status'>>;

const progressKeys = new Set<string>([
  'totalFiles',
  'totalBytes',
  'completedFiles',
  'completedBytes',
  'resumingBytes',
  'rate',
  'estimated',
]);

/**
 * An upload record as the engine emits it: package `Package <id>`, 4 files of 1000 bytes in all,
 * nothing sent yet, unless `changes` say otherwise.
 */
export function uploadOf(id: string, status: UploadStatus, changes: RecordChanges = {}) {
  const progress: Partial<UploadProgress> = {};
  const fields: Partial<UploadRecord> = {};
  for (const [key, value] of Object.entries(changes)) {
    Object.assign(progressKeys.has(key) ? progress : fields, { [key]: value });
  }
  const record: UploadRecord = {
    id,
    sentPackage: `Package ${id}`,
    startDate: null,
    complete: false,
    completeDate: null,
    retryingFiles: [],
    failedFiles: [],
    progress: {
      totalFiles: 4,
      totalBytes: 1000,
      completedFiles: 0,
      completedBytes: 0,
      resumingBytes: 0,
      rate: 0,
      estimated: null,
      ...progress,
    },
    status,
    pausedFor: status === 'PAUSED' ? 'person' : null,
    error: null,
    cancelled: false,
    ...fields,
  };
  return record;
}
