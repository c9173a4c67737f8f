import { z } from 'zod';
import { limits } from './limits';

/** Strings of the users, groups, settings, branding and export screens (spec 000 sections 5, 8). */
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

const required = z.string(adminMessages.required).trim().min(1, adminMessages.required);
const email = required.pipe(z.email(adminMessages.invalidEmail)).transform((e) => e.toLowerCase());
const optionalMobile = z.string().trim().optional().nullable();
const ids = z.array(z.number().int().positive()).max(10_000);

export const newContractUserRequest = z.object({
  first_name: required.max(150),
  last_name: required.max(150),
  email,
  mobile: optionalMobile,
  project_admin: z.boolean().default(false),
  send: z.boolean().default(false),
  add_to_master_group: z.boolean().default(false),
  groups: ids.default([]),
});

export const externalUsersRequest = z
  .array(z.object({ email, mobile: optionalMobile }))
  .min(1, 'Add at least one external user.')
  .max(500);

export const permissionUpdateRequest = z.object({
  id: z.number().int().optional(),
  send: z.boolean(),
  admin: z.boolean(),
  enabled: z.boolean(),
});

export const userDetailsRequest = z.object({ name: required.max(300) });

export const pinVerificationModes = ['none', 'all', 'adhoc'] as const;

export const notificationRow = z.object(
  {
    name: z.string().trim().min(1, adminMessages.notificationFields),
    email: z
      .string()
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
      id: z.number().int().positive().optional(),
      name: z
        .string(adminMessages.storageGroupNameRequired)
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

export const reportPeriods = ['7', '30', '90', '180', 'custom'] as const;
const isoDate = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Use the date format YYYY-MM-DD.');

/** Today as YYYY-MM-DD in UTC, the calendar the report's ISO dates use. */
export const todayIso = (now = new Date()) => now.toISOString().slice(0, 10);

export const reportRequest = z
  .object({
    report_period: z
      .union([z.enum(reportPeriods), z.number().int()])
      .transform(String)
      .pipe(z.enum(reportPeriods)),
    date_from: isoDate.nullish(),
    date_to: isoDate.nullish(),
  })
  .superRefine((r, ctx) => {
    if (r.report_period !== 'custom') return;
    if (!r.date_from || !r.date_to) {
      ctx.addIssue({
        code: 'custom',
        path: ['date_from'],
        message: adminMessages.exportDatesRequired,
      });
      return;
    }
    if (r.date_from > todayIso() || r.date_to > todayIso()) {
      ctx.addIssue({ code: 'custom', path: ['date_to'], message: adminMessages.exportFutureDate });
    }
    if (r.date_to < r.date_from) {
      ctx.addIssue({
        code: 'custom',
        path: ['date_to'],
        message: adminMessages.exportEndBeforeStart,
      });
    }
  });

export const brandingColours = [
  'purple',
  'orange',
  'yellow',
  'green',
  'aqua',
  'teal',
  'pink',
] as const;

export const brandingRequest = z.object({
  name: z
    .string()
    .trim()
    .min(1, adminMessages.required)
    .max(50, adminMessages.brandingNameLength)
    .optional(),
  alias: z
    .string()
    .trim()
    .regex(/^[A-Z]{2,3}$/, adminMessages.aliasLength)
    .optional(),
  colour: z.enum(brandingColours).optional(),
  /** A base64 image (optionally a data URL); null removes the logo. */
  logo: z.string().max(7_000_000, adminMessages.logoRejected).nullable().optional(),
});

/** Initials of a name, the alias used when none is set: 2 or 3 capitals. */
export function aliasOf(name: string): string {
  const letters = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .filter((c) => /[A-Z]/.test(c));
  const alias = letters.slice(0, 3).join('');
  if (alias.length >= 2) return alias;
  return (name.replace(/[^A-Za-z]/g, '').toUpperCase() + 'XX').slice(0, 2);
}

/** A user as the Users screen lists them (`GET /contracts/{slug}/permissions/`). */
export interface ContractUser {
  id: number;
  email: string;
  first_name: string;
  last_name: string;
  name: string;
  mobile: string | null;
  admin: boolean;
  send: boolean;
  enabled: boolean;
  master_group: boolean;
  external: boolean;
  activated: boolean;
  groups: { id: number; name: string }[];
  created_date: string;
}

export interface RecipientUser {
  id: number;
  name: string;
  first_name: string;
  last_name: string;
  email: string;
  mobile: string | null;
  verified: boolean;
}

export interface RecipientGroup {
  name: string;
  master_group: boolean;
  verified_group: boolean;
  members: RecipientUser[];
}

export interface Branding {
  name: string;
  slug: string;
  alias: string;
  colour: (typeof brandingColours)[number];
  /** A data URL of the 160 px JPEG, or null. */
  logo: string | null;
}

export interface ActivityPackage {
  id: number;
  slug: string;
  name: string;
  sender: { name: string; email: string } | null;
  contract: { id: number; slug: string; name: string };
  date_sent: string;
  valid_date: string;
  expires_date: string;
  expired: boolean;
  bytes: number;
  num_files: number;
  status: string;
  recipients: {
    email: string;
    name: string;
    downloaded: 'none' | 'partial' | 'complete';
    removed: boolean;
  }[];
}

export interface ActivityPage {
  packages: ActivityPackage[];
  page: number;
  total: number;
  has_more: boolean;
}
