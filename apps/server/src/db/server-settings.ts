import { eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from './client';
import { serverSettings } from './schema';

/**
 * Records the origin of the links this server mails, for the admin CLI on the same database.
 * A node with another origin than the recorded one still records its own, saying so: nodes
 * started after a change of PUBLIC_URL are the ones to follow, and a warning is all a stale
 * node's start should cost. Callers record only a PUBLIC_URL that was set, not the default.
 */
export async function recordPublicUrl(
  db: Database,
  publicUrl: string,
  log: FastifyBaseLogger,
): Promise<void> {
  const recorded = await recordedPublicUrl(db);
  if (recorded !== null && recorded !== publicUrl) {
    log.warn(
      `PUBLIC_URL: the public URL recorded for the admin CLI's mails was ${recorded}, ` +
        `another node's; this node's ${publicUrl} replaces it`,
    );
  }
  await db
    .insert(serverSettings)
    .values({ name: 'public_url', value: publicUrl })
    .onConflictDoUpdate({
      target: serverSettings.name,
      set: { value: publicUrl, updatedAt: sql`now()` },
    });
}

/**
 * The origin the last server started on this database with PUBLIC_URL set mails links to; null
 * before one has.
 */
export async function recordedPublicUrl(db: Database): Promise<string | null> {
  const [row] = await db
    .select({ value: serverSettings.value })
    .from(serverSettings)
    .where(eq(serverSettings.name, 'public_url'));
  return row?.value ?? null;
}
