import { lstat, mkdir } from 'node:fs/promises';
import path from 'node:path';
import { JsonFileResumeStore } from '@filerunner/transfer/node';
import { CliFailure } from './failures';
import { safeEntryName } from './receipt-file';

/** How many `<package> (n)` folders are tried before giving up. */
const MAX_FOLDER_NUMBER = 99;

/**
 * The folders `filerunner receive` made for downloads not finished yet, by download and the
 * folder it was run in: a run after Ctrl-C or a crash goes back into the same one. Kept beside
 * the downloads' ledgers, as `<host>.folders.json`.
 */
export class ReceiveFolders {
  private readonly store: JsonFileResumeStore<string>;

  constructor(ledgerFile: string) {
    this.store = new JsonFileResumeStore<string>(ledgerFile.replace(/\.json$/, '.folders.json'));
  }

  /**
   * A new folder for the package inside `parent`, named after it (`Ep 104`, else `Ep 104 (2)`,
   * …): never one that was there already, unless an earlier run of the same download made it
   * and did not finish. It is made here, and recorded before anything is written into it.
   */
  async folderFor(download: string, packageName: string, parent: string): Promise<string> {
    const key = `${download} in ${parent}`;
    const earlier = await this.store.get(key);
    if (earlier && (await isFolder(earlier))) return earlier;
    // The name is the server's: made one plain, visible folder name, never a path.
    const name = safeEntryName(packageName);
    const root = path.resolve(parent);
    for (let number = 1; number <= MAX_FOLDER_NUMBER; number++) {
      const folder = path.resolve(root, number === 1 ? name : `${name} (${number})`);
      if (path.dirname(folder) !== root) {
        throw new CliFailure('badArguments', `${JSON.stringify(name)} is no folder name.`);
      }
      try {
        await mkdir(folder);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') continue;
        throw error;
      }
      await this.store.put(key, folder);
      return folder;
    }
    throw new CliFailure(
      'badArguments',
      `${parent} already holds ${name} up to ${name} (${MAX_FOLDER_NUMBER}): choose a folder with --out.`,
    );
  }

  /** The download finished: a later run makes a new folder. */
  async finished(download: string, parent: string): Promise<void> {
    await this.store.delete(`${download} in ${parent}`);
  }
}

/** A folder itself, not a symbolic link put where the recorded one was. */
async function isFolder(folder: string): Promise<boolean> {
  return (await lstat(folder).catch(() => null))?.isDirectory() ?? false;
}
