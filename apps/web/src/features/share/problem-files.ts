import { packagePathProblem } from '@filerunner/protocol';
import type { ExcludedFile, ExclusionReason, UploadPlan } from '@filerunner/transfer';

/** The problem-files dialog lists this many files, with a note of the total. */
export const PROBLEM_LIST_LIMIT = 100;

export const problemTexts = {
  title: 'Some files have problem names',
  warning:
    'These names may not be accepted by every recipient’s system, so some download options may be limited for recipients. You can remove these files or keep them.',
  copied: 'Copied to the clipboard',
} as const;

/** One line of the problem list and of its CSV. */
export interface ProblemRow {
  /** 'Invalid filename' for files sent with a warning, 'Excluded' for files left out. */
  type: 'Invalid filename' | 'Excluded';
  filename: string;
  filepath: string;
  description: string;
}

const exclusionDescriptions: Record<ExclusionReason, string> = {
  ignored: 'System file, never sent (.DS_Store, Thumbs.db, ._*, system folders)',
  emoji: 'The path contains an emoji, so the file is not sent',
  invalid_path: 'The path cannot be stored in a package, so the file is not sent',
  too_large: 'The file is too large to send',
};

const nameOf = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/** The plan's problem files (kept unless removed), then the files it leaves out. */
export function problemRows(plan: Pick<UploadPlan, 'problemFiles' | 'excluded'>): ProblemRow[] {
  return [
    ...plan.problemFiles.map(({ source, problems }): ProblemRow => ({
      type: 'Invalid filename',
      filename: nameOf(source.path),
      filepath: source.path,
      description: problems.join('; '),
    })),
    ...plan.excluded.map((excluded): ProblemRow => ({
      type: 'Excluded',
      filename: nameOf(excluded.source.path),
      filepath: excluded.source.path,
      description: exclusionDescription(excluded),
    })),
  ];
}

/** Why a file is left out; a path the package rule refuses names its segment and reason. */
function exclusionDescription({ source, reason }: ExcludedFile): string {
  const pathProblem = reason === 'invalid_path' ? packagePathProblem(source.path) : null;
  return pathProblem ?? exclusionDescriptions[reason];
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** Every row (not only the first 100) as CSV with the columns Type, Filename, Filepath, Description. */
export function problemCsv(rows: readonly ProblemRow[]): string {
  const lines = [['Type', 'Filename', 'Filepath', 'Description']];
  for (const row of rows) lines.push([row.type, row.filename, row.filepath, row.description]);
  return lines.map((line) => line.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** 'Showing the first 100 of 2,345 files.' when the list is cut, else null. */
export function listedNote(total: number): string | null {
  if (total <= PROBLEM_LIST_LIMIT) return null;
  return `Showing the first ${PROBLEM_LIST_LIMIT} of ${total.toLocaleString('en-US')} files.`;
}
