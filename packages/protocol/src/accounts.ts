import { z } from 'zod';
import { messages } from './messages';

/** Request bodies of the accounts calls (spec 000 section 7), validated on the server. */
const required = (schema: z.ZodString = z.string()) =>
  schema.trim().min(1, messages.password.required);
const optionalText = z.string().trim().optional();

export const authenticateRequest = z.object({
  email: required(),
  password: z.string().min(1, messages.password.required),
});

export const forgotPasswordRequest = z.object({
  email: required().pipe(z.email('Enter a valid email address.')),
});

export const tokenCheckRequest = z.object({ uid: required(), token: required() });

export const resetPasswordRequest = z.object({
  uid: required(),
  token: required(),
  password: z.string().min(1, messages.password.required),
  password_confirm: z.string().min(1, messages.password.required),
});

export const activateRequest = z.object({
  uid: required(),
  token: required(),
  name: z.string().trim().min(1, messages.activation.nameRequired),
  mobile: optionalText,
  password: z.string().min(1, messages.activation.passwordRequired),
  password_confirm: z.string().min(1, messages.activation.confirmationRequired),
});

export const updatePasswordRequest = z.object({
  password_current: z.string().min(1, messages.password.required),
  password_new: z.string().min(1, messages.password.required),
  password_new_confirm: z.string().min(1, messages.password.required),
});

export const updateSettingsRequest = z.object({ show_select_storage: z.boolean() });

/** The text fields of the profile form (multipart); the avatar file travels beside them. */
export const profileUpdateFields = z.object({
  first_name: z.string().trim().min(1, messages.profile.firstNameRequired).max(150),
  last_name: z.string().trim().min(1, messages.profile.lastNameRequired).max(150),
  mobile: optionalText,
  mobile_confirm: optionalText,
  timezone: optionalText,
  clear_avatar: optionalText,
});

export const createApiKeyRequest = z.object({
  name: z.string().trim().min(1, messages.apiKeys.nameRequired).max(100),
});

/** The user as `GET /user/` returns it. */
export interface User {
  id: number;
  uid: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  name: string;
  avatar: string | null;
  mobile: string | null;
  timezone: string;
  show_select_storage: boolean;
  admin: boolean;
  send: boolean;
  receive: boolean;
  enabled: boolean;
  groups: string[];
  created_date: string;
}

export interface ContractSettings {
  number_of_upload_workers: number;
  use_slab_files: boolean;
  can_add_ad_hoc: boolean;
  pin_verification: 'none' | 'all' | 'adhoc';
  can_extend_expiry: boolean;
  notifications: { name: string; email: string; enabled: boolean }[];
}

/** A contract (project) as `GET /contracts/` returns it for the current user. */
export interface Contract {
  id: number;
  slug: string;
  name: string;
  service_id: string;
  permissions: { send: boolean; admin: boolean };
  settings: ContractSettings;
  storage_app_groups: { id: number; name: string }[];
  /** Whether the operator allows custom branding: off, there is no Custom Branding tab. */
  branding_enabled: boolean;
}

/** A row of `GET /user/permissions/`: the user's membership of one contract. */
export interface Membership {
  contract: { id: number; name: string; slug: string };
  admin: boolean;
  send: boolean;
  enabled: boolean;
  master_group: boolean;
  groups: { name: string }[];
}

export interface ApiKey {
  uuid: string;
  name: string;
  created_timestamp: string;
  revoked: boolean;
}

/** `POST /api_keys/` answers with the key itself, shown once. */
export interface CreatedApiKey extends ApiKey {
  key: string;
}

export interface ActivationTokenCheck {
  success: boolean;
  email: string;
  mobile: string | null;
  first_name: string;
  last_name: string;
}

/** Field errors as the spec's client reads them: `{"field": ["message"]}`. */
export type FieldErrors = Record<string, string[]>;
