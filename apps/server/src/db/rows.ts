import type {
  apiKeys,
  brandings,
  contracts,
  downloadGrants,
  downloads,
  groups,
  memberships,
  packageFiles,
  packageRecipients,
  packages,
  users,
} from './schema';

// Each table's row as drizzle reads it, named once here beside the schema: a column added to a
// table reaches every module that reads its rows, and no module keeps a copy of its own that
// could drift. A module that needs fewer columns picks them (`Pick<PackageRow, 'id' | 'slug'>`).

/**
 * A user as the server works with it: every column but the avatar's bytes (up to 1 MB), which
 * only the avatar's own route reads (`userColumns` in the accounts repository selects these).
 */
export type UserRow = Omit<typeof users.$inferSelect, 'avatar'>;
/** A user with the avatar's bytes, as the avatar's route reads it. */
export type UserWithAvatarRow = typeof users.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type ContractRow = typeof contracts.$inferSelect;
export type MembershipRow = typeof memberships.$inferSelect;
export type GroupRow = typeof groups.$inferSelect;
export type BrandingRow = typeof brandings.$inferSelect;
export type PackageRow = typeof packages.$inferSelect;
export type RecipientRow = typeof packageRecipients.$inferSelect;
export type FileRow = typeof packageFiles.$inferSelect;
/** A download grant: the URL's permission, not what was fetched with it. */
export type GrantRow = typeof downloadGrants.$inferSelect;
/** One download recorded on a grant. */
export type DownloadRow = typeof downloads.$inferSelect;
