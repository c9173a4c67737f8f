import { fileURLToPath } from 'node:url';
import { sql, type SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import type { Holder } from './data-dir-lock';
import { openEmbeddedDatabase } from './embedded-database';
import * as schema from './schema';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface DatabaseHandle {
  db: Database;
  /** 'embedded' for the PostgreSQL the app runs itself, 'postgres' for one at DATABASE_URL. */
  kind: 'embedded' | 'postgres';
  /** Where the pool connects; a process's realtime listener opens its own connection there. */
  url: string;
  /** The pool's connections now: open, idle, and queries waiting for one (for /metrics). */
  poolUse(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
}

const migrationsFolder = fileURLToPath(new URL('../../drizzle', import.meta.url));
// Any constant shared by every node: only one of them migrates at a time.
const MIGRATION_LOCK = 727_001;

/**
 * Connects to PostgreSQL at `databaseUrl`, or, without one, to the embedded PostgreSQL on the
 * data folder (started for the folder's owner, shared with the admin CLI), and applies the
 * migrations under a lock so that several nodes starting together migrate once.
 */
export async function openDatabase(options: {
  databaseUrl?: string | undefined;
  dataDir: string;
  embeddedDbUser?: string | undefined;
  /** Who opens an embedded data folder: the server (default) or the admin CLI. */
  holder?: Holder;
  onIdleError?: (error: Error) => void;
  onLog?: (message: string) => void;
}): Promise<DatabaseHandle> {
  const embedded = options.databaseUrl
    ? undefined
    : await openEmbeddedDatabase({
        dataDir: options.dataDir,
        holder: options.holder ?? 'server',
        osUser: options.embeddedDbUser,
        onLog: options.onLog,
      });
  const url = options.databaseUrl ?? embedded!.url;
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle connection the server drops (restart, failover) must not crash the process; the
  // pool replaces it on the next query.
  pool.on('error', (error) => options.onIdleError?.(error));
  const close = async () => {
    await pool.end();
    await embedded?.close();
  };
  try {
    const db = drizzle(pool, { schema, casing: 'snake_case' });
    const lock = await pool.connect();
    try {
      await lock.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
      await migrate(db, { migrationsFolder });
    } finally {
      await lock.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      lock.release();
    }
    const poolUse = () => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
    });
    return {
      db: db as unknown as Database,
      kind: embedded ? 'embedded' : 'postgres',
      url,
      poolUse,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/**
 * True when the database commits a write and says so: a transaction id is taken and committed,
 * which writes and flushes the WAL, with no table touched. Used by /healthcheck.
 */
export async function databaseWrites(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select pg_current_xact_id()`);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs raw SQL and returns its rows. Both drivers answer `{ rows }`, but drizzle's shared
 * PostgreSQL type cannot say so.
 */
export async function queryRows<T>(db: Database, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

/**
 * A prepared statement made once per database handle and reused by every call: for queries
 * each signed-in request runs, so drizzle builds them once and PostgreSQL plans them once per
 * connection.
 */
export function preparedOnce<S>(build: (db: Database) => S): (db: Database) => S {
  const statements = new WeakMap<Database, S>();
  return (db) => {
    let statement = statements.get(db);
    if (!statement) {
      statement = build(db);
      statements.set(db, statement);
    }
    return statement;
  };
}
