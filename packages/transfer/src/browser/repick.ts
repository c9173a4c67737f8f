import { sourceIdentity, type ByteSource } from '../core/ports';

/** A file as an upload recorded it: the identity a re-picked file must match. */
export type RecordedFile = Pick<ByteSource, 'path' | 'size' | 'lastModified'>;

export interface RepickMatch<Source extends ByteSource> {
  /** The picked file of each recorded file that is still the same, in the recorded order. */
  matched: Source[];
  /** Recorded files with nothing picked at their path. */
  missing: RecordedFile[];
  /** Recorded files picked again with another size or date: edited since, so not resumable. */
  changed: { recorded: RecordedFile; picked: Source }[];
  /** Picked files the upload never had (the folder gained files, or another folder was picked). */
  unrecorded: Source[];
}

/**
 * Maps files picked again after a reload (from a plain `<input>`, which keeps no handles) onto the
 * files an interrupted upload recorded, by path, size and `lastModified`. The upload resumes when
 * nothing is missing or changed; otherwise the sender is told which files to find again.
 */
export function matchRepickedFiles<Source extends ByteSource>(
  recorded: readonly RecordedFile[],
  picked: readonly Source[],
): RepickMatch<Source> {
  const pickedByPath = new Map(picked.map((source) => [source.path, source]));
  const result: RepickMatch<Source> = { matched: [], missing: [], changed: [], unrecorded: [] };
  for (const file of recorded) {
    const candidate = pickedByPath.get(file.path);
    if (!candidate) result.missing.push(file);
    else if (sourceIdentity(candidate) === sourceIdentity(file)) result.matched.push(candidate);
    else result.changed.push({ recorded: file, picked: candidate });
  }
  const recordedPaths = new Set(recorded.map((file) => file.path));
  result.unrecorded = picked.filter((source) => !recordedPaths.has(source.path));
  return result;
}

/** A recorded file the pick did not give back unchanged. */
export interface RepickProblem {
  path: string;
  /** `missing`: nothing at its path; `changed`: another size or date (edited since). */
  reason: 'missing' | 'changed';
}

/** What stops a resume from a pick, in the recorded order: the files to tell the person about. */
export function repickProblems(match: RepickMatch<ByteSource>): RepickProblem[] {
  return [
    ...match.missing.map((file) => ({ path: file.path, reason: 'missing' as const })),
    ...match.changed.map(({ recorded }) => ({ path: recorded.path, reason: 'changed' as const })),
  ].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
