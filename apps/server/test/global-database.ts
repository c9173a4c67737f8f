import { rm } from 'node:fs/promises';
import { startEmbeddedPostgres } from '../src/db/embedded-postgres';
import { tempDataParent } from './temp-data-dir';

/**
 * Without DATABASE_URL the suites run on the embedded default's database: one embedded
 * PostgreSQL for the whole run, on which every test file makes its own scratch database, as
 * they do on a PostgreSQL server named by DATABASE_URL.
 */
export default async function setup(): Promise<(() => Promise<void>) | undefined> {
  if (process.env.DATABASE_URL) return undefined;
  const dataDir = await tempDataParent('fr-tests-db-');
  const cluster = await startEmbeddedPostgres({ dataDir });
  process.env.DATABASE_URL = cluster.url;
  return async () => {
    await cluster.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
