import { randomBytes } from 'node:crypto';
import { count } from 'drizzle-orm';
import { unmetPasswordRequirements } from '@filerunner/protocol';
import type { AppContext } from '../context';
import { contracts, users } from '../db/schema';
import { hashPassword } from '../modules/accounts/passwords';
import { addMember } from '../modules/contracts/contracts.service';
import { insertGroup } from '../modules/contracts/groups.repository';

export const DEMO_USERS = [
  {
    email: 'admin@example.com',
    firstName: 'Ada',
    lastName: 'Admin',
    admin: true,
    send: true,
    master: true,
  },
  {
    email: 'sender@example.com',
    firstName: 'Sam',
    lastName: 'Sender',
    admin: false,
    send: true,
    master: false,
  },
  {
    email: 'recipient@example.com',
    firstName: 'Rita',
    lastName: 'Recipient',
    admin: false,
    send: false,
    master: false,
  },
] as const;

/** A password that meets the spec's rules, for a demo run without DEMO_PASSWORD. */
export function generatePassword(): string {
  for (;;) {
    const candidate = `${randomBytes(9).toString('base64url')}a7Z!`;
    if (unmetPasswordRequirements(candidate).length === 0) return candidate;
  }
}

/**
 * On an empty database, creates the demo contract with an admin, a sender and a receive-only
 * user, two groups and the master group, and returns the logins to print. Null when the
 * database already holds data.
 */
export async function seedDemo(
  ctx: AppContext,
): Promise<{ password: string; generated: boolean } | null> {
  const [existing] = await ctx.db.select({ n: count() }).from(users);
  const [contractCount] = await ctx.db.select({ n: count() }).from(contracts);
  if (existing!.n > 0 || contractCount!.n > 0) return null;

  const generated = !ctx.config.demoPassword;
  const password = ctx.config.demoPassword ?? generatePassword();
  const problems = unmetPasswordRequirements(password);
  if (problems.length)
    throw new Error(`DEMO_PASSWORD does not meet the password rules: ${problems.join(', ')}`);
  const passwordHash = await hashPassword(password);

  await ctx.db.transaction(async (tx) => {
    const [contract] = await tx
      .insert(contracts)
      .values({ name: 'Demo Contract', slug: 'demo' })
      .returning();
    const ids: number[] = [];
    for (const u of DEMO_USERS) {
      const [row] = await tx
        .insert(users)
        .values({
          email: u.email,
          firstName: u.firstName,
          lastName: u.lastName,
          passwordHash,
          activatedAt: new Date(),
        })
        .returning({ id: users.id });
      ids.push(row!.id);
      await addMember({ ...ctx, db: tx }, contract!.id, row!.id, {
        admin: u.admin,
        send: u.send,
        masterGroup: u.master,
      });
    }
    const [adminId, senderId, recipientId] = ids as [number, number, number];
    await insertGroup(tx, contract!.id, { name: 'Design', members: [adminId, senderId] });
    await insertGroup(tx, contract!.id, { name: 'Partners', members: [senderId, recipientId] });
  });
  return { password, generated };
}
