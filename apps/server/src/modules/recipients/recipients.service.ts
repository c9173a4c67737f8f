import type { RecipientGroup, RecipientUser } from '@filerunner/protocol';
import type { Database } from '../../db/client';
import { displayName } from '../accounts/display-name';
import { enabledMembersOf, groupMembershipsOf } from './recipients.repository';

type MemberRow = Awaited<ReturnType<typeof enabledMembersOf>>[number];

// Names and mobiles are the contract's own for the member (its default PIN mobile), never
// another contract's or an unshared profile's.
const toRecipient = (u: MemberRow): RecipientUser => ({
  id: u.id,
  name: displayName(u),
  first_name: u.firstName,
  last_name: u.lastName,
  email: u.email,
  mobile: u.mobile,
  // Verified means the person is active in this contract: they have an activated account and
  // signed in since the contract added them. External and ad-hoc people are not.
  verified: u.active,
});

export const OTHER_USERS_GROUP = 'Other users';

/**
 * The people a user may send to in a contract, by group. The rule: members of a group exchange
 * only within it; master-group members are visible to and reach everybody; someone in several
 * groups sees all of them. The caller is left out of the lists.
 */
export async function recipientGroupsFor(
  db: Database,
  contractId: number,
  userId: number,
): Promise<RecipientGroup[]> {
  const members = await enabledMembersOf(db, contractId);
  const caller = members.find((m) => m.id === userId);
  if (!caller) return [];
  const links = await groupMembershipsOf(db, contractId);

  const byId = new Map(members.map((m) => [m.id, m]));
  const others = (ids: Iterable<number>) =>
    [...ids].filter((id) => id !== userId && byId.has(id)).map((id) => toRecipient(byId.get(id)!));

  const callerGroups = new Set(links.filter((l) => l.userId === userId).map((l) => l.groupId));
  const result: RecipientGroup[] = [];
  const master = members.filter((m) => m.masterGroup).map((m) => m.id);
  result.push({
    name: 'Master group',
    master_group: true,
    verified_group: true,
    members: others(master),
  });

  const groupIds = [...new Set(links.map((l) => l.groupId))];
  for (const groupId of groupIds) {
    if (!caller.masterGroup && !callerGroups.has(groupId)) continue;
    const groupLinks = links.filter((l) => l.groupId === groupId);
    result.push({
      name: groupLinks[0]!.name,
      master_group: false,
      verified_group: true,
      members: others(groupLinks.map((l) => l.userId)),
    });
  }
  if (caller.masterGroup) {
    const grouped = new Set([...master, ...links.map((l) => l.userId)]);
    const ungrouped = members.filter((m) => !grouped.has(m.id)).map((m) => m.id);
    if (ungrouped.length) {
      result.push({
        name: OTHER_USERS_GROUP,
        master_group: false,
        verified_group: false,
        members: others(ungrouped),
      });
    }
  }
  return result.filter((g) => g.members.length > 0 || g.master_group);
}

/** The ids of everyone the user may send to in the contract (the server-side check for sends). */
export async function reachableUserIds(
  db: Database,
  contractId: number,
  userId: number,
): Promise<Set<number>> {
  const groupsSeen = await recipientGroupsFor(db, contractId, userId);
  return new Set(groupsSeen.flatMap((g) => g.members.map((m) => m.id)));
}
