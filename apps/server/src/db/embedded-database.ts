import { DataDirInUse, lockDataDir, type Holder } from './data-dir-lock';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './embedded-postgres';

/**
 * The embedded default's database for one process: the owner of the data folder (the server, or
 * the admin CLI when no server runs) locks the folder, starts the embedded PostgreSQL and stops
 * it when done. The admin CLI beside a running server connects to that server's database
 * instead: PostgreSQL serialises both processes' writes, so a command's changes are committed
 * as soon as it reports them and nothing the server writes later replaces them.
 */
export async function openEmbeddedDatabase(options: {
  dataDir: string;
  holder: Holder;
  osUser?: string | undefined;
  onLog?: (message: string) => void;
}): Promise<{ url: string; close(): Promise<void> }> {
  let lock;
  try {
    lock = await lockDataDir(options.dataDir, options.holder);
  } catch (error) {
    if (error instanceof DataDirInUse && options.holder === 'admin CLI') {
      if (error.owner.holder !== 'server') throw error;
      const url = await runningEmbeddedUrl(options.dataDir);
      if (!url)
        throw new Error(
          `The FileRunner server (pid ${error.owner.pid}) holds ${error.dataDir} but its database ` +
            'does not answer yet; try again once the server has started.',
          { cause: error },
        );
      return { url, close: async () => undefined };
    }
    throw error;
  }
  try {
    const cluster = await startEmbeddedPostgres(options);
    return {
      url: cluster.url,
      async close() {
        try {
          await cluster.stop();
        } finally {
          await lock.release();
        }
      },
    };
  } catch (error) {
    await lock.release();
    throw error;
  }
}
