import pg from 'pg';

/**
 * A throwaway database on a PostgreSQL server, for one test file or one browser suite, so legs
 * and files never see each other's rows. `url` names it; `drop` removes it.
 */
export async function createScratchDatabase(
  serverUrl: string,
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `fr_test_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const run = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const drop = async () => {
    // Connections the app just closed may still be saying goodbye; forcing at once would
    // kill them mid-way, so wait for them a little first.
    for (let attempt = 0; attempt < 20; attempt++) {
      try {
        return await run(`drop database if exists ${name}`);
      } catch (error) {
        if ((error as { code?: string }).code !== '55006') throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    await run(`drop database if exists ${name} with (force)`);
  };
  return { url: url.toString(), drop };
}
