import { quotedNames } from './folder-paths';
import { DownloadSinkError } from './ports';

/*
 * A download never writes over a file it did not create. Before a sink writes anything it looks
 * at every name of the package in its folder, and each file already there is judged here, the
 * same way by every sink: the download's own (its ledger says an earlier run of it finished or
 * made it), one it may replace because the person said so, or one that stops the download.
 */

/** What a sink does with a target's name, given what it found there. */
export type FoundFileVerdict =
  /** A file the download did not make, and the person has not said to replace: stop. */
  | 'not ours'
  /** An empty file goes here: make it now (absent, or a file of ours that is not empty). */
  | 'make empty'
  /** Keep it as it is: finished by an earlier run (of the size sent), or empty as it should be. */
  | 'keep'
  /** Write the file from its first byte missing (absent, or ours but not whole, or to replace). */
  | 'write';

export interface FoundFile {
  /** The target's size as sent. */
  readonly size: number;
  /** The size of the file already at its name, or null when there is none. */
  readonly foundSize: number | null;
  /** The ledger says an earlier run of this download finished this file. */
  readonly finished: boolean;
  /** The ledger says this download made the file (finished it, or began it). */
  readonly ours: boolean;
  /** The person chose to replace this file. */
  readonly replace: boolean;
}

/** What a sink may do at a target's name: pure, so both platforms' sinks decide alike. */
export function foundFileVerdict(found: FoundFile): FoundFileVerdict {
  const { size, foundSize, finished, replace } = found;
  if (foundSize === null) return size === 0 ? 'make empty' : 'write';
  // An empty file where an empty file goes loses nothing when it is taken as made.
  const ours = found.ours || finished || (size === 0 && foundSize === 0);
  if (!ours && !replace) return 'not ours';
  if (size === 0) return foundSize > 0 ? 'make empty' : 'keep';
  return finished && foundSize === size ? 'keep' : 'write';
}

/**
 * Other names for a package file that may be saved beside a file of the same name that the
 * download did not make, instead of stopping it: the package's ASC MHL chain. Every package's
 * tar ends with `ascmhl/ascmhl_chain.xml`, so the second package unpacked into one folder always
 * finds the first one's (or the folder's own ASC MHL history); writing over it would lose that
 * history, and stopping would make every queue of packages into one folder ask. The package's
 * hash list itself has a name of its own (sequence, package name, time), so it never meets one.
 * Empty when `path` has no such names: a file found there stops the download.
 */
export function sideNames(path: string): string[] {
  const chain = /^(ascmhl\/ascmhl_chain)(\.xml)$/.exec(path);
  if (!chain) return [];
  return Array.from({ length: 98 }, (_, i) => `${chain[1]} (${i + 2})${chain[2]}`);
}

/**
 * The folder already holds what the download would replace or write through: files no earlier
 * run of this download made (`files`, replaced only when the person says so), or symbolic
 * links where its files or folders go (`links`, never followed). Nothing was written.
 */
export class OccupiedFolderError extends DownloadSinkError {
  constructor(
    readonly files: readonly string[],
    readonly links: readonly string[] = [],
  ) {
    const reasons = [
      files.length > 0 && `files this download did not write: ${quotedNames(files)}`,
      links.length > 0 && `symbolic links, never written through: ${quotedNames(links)}`,
    ].filter((reason) => reason !== false);
    super('occupied', `The folder already holds ${reasons.join('; ')}.`, true);
  }
}
