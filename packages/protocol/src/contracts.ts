import { z } from 'zod';
import { defineRoute } from './api/route';
import { rowId, slugParam, text } from './api/fields';
import { limits } from './limits';

/** Strings of the users, groups, settings, branding and export screens. */
export const adminMessages = {
  required: 'This field is required.',
  groupNameRequired: 'Group name is required',
  notificationFields: 'Please fill out all notification fields',
  notificationsFailed: 'Sorry could not add notifications',
  settingsUpdated: 'Settings updated successfully',
  exportDatesRequired: 'Please select a start and end date',
  exportFutureDate: 'Dates cannot be later than today',
  exportEndBeforeStart: 'The end date cannot be before the start date',
  reportQueued: 'Your report is being prepared and will be emailed to you.',
  aliasLength: 'Alias must be 2 letters min',
  brandingNameLength: 'Name must be 50 characters or fewer',
  logoRejected: "We couldn't upload your file. Please try again with a different one.",
  brandingUpdated: 'Custom branding updated successfully',
  brandingUpdateFailed: 'Failed to update branding',
  brandingNotEnabled: 'Custom branding is not enabled for this contract.',
  userExists: 'This user is already a member of this contract.',
  notAMember: 'That user is not a member of this contract.',
  unknownGroup: 'That group does not exist in this contract.',
  invalidEmail: 'Enter a valid email address.',
  cannotRemoveSelf: 'You cannot remove yourself from the contract.',
  cannotDemoteSelf: 'You cannot remove your own admin permission.',
  storageGroupNameRequired: 'Storage location name is required',
  storageGroupDuplicate: 'Storage location names must be different',
} as const;

export const pinVerificationModes = ['none', 'all', 'adhoc'] as const;

export const notificationRow = z.object(
  {
    name: text().trim().min(1, adminMessages.notificationFields),
    email: text()
      .trim()
      .min(1, adminMessages.notificationFields)
      .pipe(z.email(adminMessages.invalidEmail)),
    enabled: z.boolean().default(true),
  },
  adminMessages.notificationFields,
);

/** A contract's storage locations, as a whole list: ids keep (and rename), no id creates. */
export const storageAppGroupsField = z
  .array(
    z.object({
      id: rowId.optional(),
      name: text(adminMessages.storageGroupNameRequired)
        .trim()
        .min(1, adminMessages.storageGroupNameRequired)
        .max(limits.storageGroupNameMax),
    }),
  )
  .max(limits.storageGroupsMax)
  .refine(
    (groups) => new Set(groups.map((g) => g.name.toLowerCase())).size === groups.length,
    adminMessages.storageGroupDuplicate,
  );

export const contractSettingsRequest = z.object({
  can_add_ad_hoc: z.boolean().optional(),
  pin_verification: z.enum(pinVerificationModes).optional(),
  notifications: z.array(notificationRow).max(50).optional(),
  can_extend_expiry: z.boolean().optional(),
  number_of_upload_workers: z.number().int().min(1).max(limits.uploadWorkersMax).optional(),
  use_slab_files: z.boolean().optional(),
  storage_app_groups: storageAppGroupsField.optional(),
});

export const contractSettings = z.object({
  number_of_upload_workers: z.number(),
  use_slab_files: z.boolean(),
  can_add_ad_hoc: z.boolean(),
  pin_verification: z.enum(pinVerificationModes),
  can_extend_expiry: z.boolean(),
  notifications: z.array(z.object({ name: z.string(), email: z.string(), enabled: z.boolean() })),
});
export type ContractSettings = z.infer<typeof contractSettings>;

/** A storage location of a contract: a container of its own that packages may be sent to. */
export const storageAppGroup = z.object({ id: z.number(), name: z.string() });

/** A contract (project) as `GET /contracts/` returns it for the current user. */
export const contract = z.object({
  id: z.number(),
  slug: z.string(),
  name: z.string(),
  service_id: z.string(),
  permissions: z.object({ send: z.boolean(), admin: z.boolean() }),
  settings: contractSettings,
  storage_app_groups: z.array(storageAppGroup),
  /** Whether the operator allows custom branding: off, there is no Custom Branding tab. */
  branding_enabled: z.boolean(),
  /** The operator's storage quota: bytes the contract's live packages may hold; null: unlimited. */
  storage_quota: z.number().nullable(),
  /** The operator's largest package, in bytes; null: unlimited. */
  max_package_size: z.number().nullable(),
});
export type Contract = z.infer<typeof contract>;

/** The settings as saved, and the storage locations as saved, with their ids. */
export const savedContractSettings = z.object({
  detail: z.string(),
  settings: contractSettings,
  storage_app_groups: z.array(storageAppGroup),
});

/** A contract's storage as its admin sees it: the operator's limits and what live packages hold. */
export const contractStorage = z.object({
  storage_quota: z.number().nullable(),
  max_package_size: z.number().nullable(),
  /** Bytes of the contract's live packages, as the quota counts them. */
  storage_used: z.number(),
});
export type ContractStorage = z.infer<typeof contractStorage>;

/** The projects of the signed-in user, and a project's settings. */
export const contractRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/contracts/',
    summary: 'The contracts the user is an enabled member of, with permissions and settings',
    auth: 'user',
    status: 200,
    response: z.array(contract),
  }),
  updateSettings: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/settings/',
    summary:
      "Change a contract's settings (those left out keep their value) and its storage locations",
    auth: 'user',
    params: z.object({ slug: slugParam }),
    body: contractSettingsRequest,
    status: 200,
    response: savedContractSettings,
  }),
  storage: defineRoute({
    method: 'GET',
    path: '/contracts/:slug/storage/',
    summary: "The operator's storage limits on a contract and what its live packages hold",
    auth: 'user',
    params: z.object({ slug: slugParam }),
    status: 200,
    response: contractStorage,
  }),
};
