import { eq, sql } from 'drizzle-orm';
import type { Database } from './client';
import { serverSettings } from './schema';

/** Records the origin of the links this server mails, for the admin CLI on the same database. */
export async function recordPublicUrl(db: Database, publicUrl: string): Promise<void> {
  await db
    .insert(serverSettings)
    .values({ name: 'public_url', value: publicUrl })
    .onConflictDoUpdate({
      target: serverSettings.name,
      set: { value: publicUrl, updatedAt: sql`now()` },
    });
}

/** The origin the last server started on this database mails links to; null before one has. */
export async function recordedPublicUrl(db: Database): Promise<string | null> {
  const [row] = await db
    .select({ value: serverSettings.value })
    .from(serverSettings)
    .where(eq(serverSettings.name, 'public_url'));
  return row?.value ?? null;
}
