import { and, eq, sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { Membership } from '@filerunner/protocol';
import { preparedOnce, type Database } from '../../db/client';
import type { ContractRow, MembershipRow } from '../../db/rows';
import {
  contracts,
  groupMembers,
  groups,
  memberships,
  storageAppGroups,
  users,
} from '../../db/schema';
import { memberMobile } from './member-view';

// Membership rows belong to both sides of a user's place in a contract: accounts reads them to
// summarise a user, contracts to decide what a member may do. Both read them here, so neither of
// those modules has to import the other.

/** A membership together with the contract it is in. */
export interface ContractMembership {
  contract: ContractRow;
  membership: MembershipRow;
}

/**
 * The user's membership of the contract with this slug, enabled or not, with the contract;
 * undefined when there is no such contract or the user is not in it.
 */
export async function membershipBySlug(
  db: Database,
  userId: number,
  slug: string,
): Promise<ContractMembership | undefined> {
  const [row] = await db
    .select({ contract: contracts, membership: memberships })
    .from(contracts)
    .innerJoin(memberships, eq(memberships.contractId, contracts.id))
    .where(and(eq(contracts.slug, slug), eq(memberships.userId, userId)));
  return row;
}

/** A membership as the caller's own requests read it: enough for the summary and the contracts list. */
export interface CallerMembership {
  contract: {
    id: number;
    slug: string;
    name: string;
    service_id: string;
    enabled: boolean;
    branding_enabled: boolean;
    storage_quota: number | null;
    max_package_size: number | null;
    settings: ContractRow['settings'];
  };
  admin: boolean;
  send: boolean;
  enabled: boolean;
  master_group: boolean;
  /** Whether the person has used FileRunner since this contract added them. */
  active: boolean;
  /** The names of the user's groups in the contract. */
  groups: string[];
  storage_app_groups: Array<{ id: number; name: string }>;
}

/**
 * Every membership (enabled or not) of the user whose id is `userId` (a column of the outer
 * query), with its contract, the user's group names and the contract's storage locations, as one
 * JSON value. The session and API-key lookups select it beside the user, so a signed-in page's
 * summary and contracts list cost no statement of their own.
 */
export function callerMembershipsOf(userId: SQLWrapper): SQL<CallerMembership[]> {
  // Nested in a second template: drizzle writes the top-level columns of a single-table query's
  // selection without their table, which would make them ambiguous inside these subqueries.
  return sql<CallerMembership[]>`${sql`coalesce((
    select json_agg(json_build_object(
      'contract', json_build_object(
        'id', ${contracts.id}, 'slug', ${contracts.slug}, 'name', ${contracts.name},
        'service_id', ${contracts.serviceId}, 'enabled', ${contracts.enabled},
        'branding_enabled', ${contracts.brandingEnabled}, 'settings', ${contracts.settings},
        'storage_quota', ${contracts.storageQuota},
        'max_package_size', ${contracts.maxPackageSize}
      ),
      'admin', ${memberships.admin}, 'send', ${memberships.send},
      'enabled', ${memberships.enabled}, 'master_group', ${memberships.masterGroup},
      'active', ${memberships.activeSince} is not null,
      'groups', coalesce((
        select json_agg(${groups.name} order by ${groups.name})
        from ${groupMembers} join ${groups} on ${groups.id} = ${groupMembers.groupId}
        where ${groupMembers.userId} = ${memberships.userId}
          and ${groups.contractId} = ${contracts.id}
      ), '[]'::json),
      'storage_app_groups', coalesce((
        select json_agg(
          json_build_object('id', ${storageAppGroups.id}, 'name', ${storageAppGroups.name})
          order by ${storageAppGroups.name}, ${storageAppGroups.id}
        )
        from ${storageAppGroups}
        where ${storageAppGroups.contractId} = ${contracts.id}
      ), '[]'::json)
    ) order by ${contracts.name}, ${contracts.id})
    from ${memberships} join ${contracts} on ${contracts.id} = ${memberships.contractId}
    where ${memberships.userId} = ${userId}
  ), '[]'::json)`}`;
}

/** The statement behind `callerMemberships` for a user other than the caller, built once. */
const membershipsOfUserStatement = preparedOnce((db) =>
  db
    .select({ memberships: callerMembershipsOf(users.id) })
    .from(users)
    .where(eq(users.id, sql.placeholder('userId')))
    .prepare('memberships_of_user'),
);

/** Every membership of a user, read on its own (the caller's come with the session lookup). */
export async function callerMemberships(db: Database, userId: number): Promise<CallerMembership[]> {
  const [row] = await membershipsOfUserStatement(db).execute({ userId });
  return row?.memberships ?? [];
}

/** Memberships as the user's summary lists them. */
export function membershipsFrom(list: CallerMembership[]): Membership[] {
  return list.map((m) => ({
    contract: { id: m.contract.id, name: m.contract.name, slug: m.contract.slug },
    admin: m.admin,
    send: m.send,
    enabled: m.enabled,
    master_group: m.master_group,
    groups: m.groups.map((name) => ({ name })),
  }));
}

/** The user's membership of the contract, if any. */
export async function membershipOf(
  db: Database,
  contractId: number,
  userId: number,
): Promise<MembershipRow | undefined> {
  const [row] = await db
    .select()
    .from(memberships)
    .where(and(eq(memberships.contractId, contractId), eq(memberships.userId, userId)));
  return row;
}

/** The contract's own mobile for the member, never the account's: that may be another contract's. */
export async function contractMobileOf(
  db: Database,
  contractId: number,
  userId: number,
): Promise<string | null> {
  const [member] = await db
    .select({ mobile: memberMobile })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.contractId, contractId), eq(memberships.userId, userId)));
  return member?.mobile ?? null;
}
