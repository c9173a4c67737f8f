import { z } from 'zod';
import { defineRoute } from './api/route';
import { text } from './api/fields';
import { messages } from './messages';

/** Request bodies of the accounts calls, validated on the server. */
const required = (schema: z.ZodString = text()) => schema.trim().min(1, messages.password.required);
const optionalText = text().trim().optional();
// Passwords stay plain strings: they are only hashed, never stored or looked up as text.

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
  name: text().trim().min(1, messages.activation.nameRequired),
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
  first_name: text().trim().min(1, messages.profile.firstNameRequired).max(150),
  last_name: text().trim().min(1, messages.profile.lastNameRequired).max(150),
  mobile: optionalText,
  mobile_confirm: optionalText,
  timezone: optionalText,
  clear_avatar: optionalText,
});

/** The user as `GET /user/` returns it. */
export const currentUser = z.object({
  id: z.number(),
  uid: z.string(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  name: z.string(),
  /** The avatar's address, versioned so a new picture is fetched again; null without one. */
  avatar: z.string().nullable(),
  mobile: z.string().nullable(),
  timezone: z.string(),
  show_select_storage: z.boolean(),
  /** Summaries over the user's enabled memberships. */
  admin: z.boolean(),
  send: z.boolean(),
  receive: z.boolean(),
  enabled: z.boolean(),
  groups: z.array(z.string()),
  created_date: z.string(),
});
export type User = z.infer<typeof currentUser>;

/** A row of `GET /user/permissions/`: the user's membership of one contract. */
export const membership = z.object({
  contract: z.object({ id: z.number(), name: z.string(), slug: z.string() }),
  admin: z.boolean(),
  send: z.boolean(),
  enabled: z.boolean(),
  master_group: z.boolean(),
  groups: z.array(z.object({ name: z.string() })),
});
export type Membership = z.infer<typeof membership>;

/** A good activation link: what the invitation already knows, to fill the form with. */
export const activationTokenCheck = z.object({
  success: z.boolean(),
  email: z.string(),
  mobile: z.string().nullable(),
  first_name: z.string(),
  last_name: z.string(),
});
export type ActivationTokenCheck = z.infer<typeof activationTokenCheck>;

/** The answer of a call whose only news is that it worked. */
const succeeded = z.object({ success: z.boolean() });
/** The answer of a call that tells the person what happened. */
const told = z.object({ detail: z.string() });

/** Field errors as the spec's client reads them: `{"field": ["message"]}`. */
export type FieldErrors = Record<string, string[]>;

/**
 * The account calls: signing in and out, the session, the user's own profile and settings, and
 * the mailed links (password reset, activation), which are public.
 */
export const accountRoutes = {
  authenticate: defineRoute({
    method: 'POST',
    path: '/authenticate/',
    summary: 'Sign in with email and password: sets the session cookie, answers the user',
    auth: 'public',
    body: authenticateRequest,
    status: 200,
    response: currentUser,
  }),
  logout: defineRoute({
    method: 'POST',
    path: '/logout/',
    summary: 'End this session (also fine without one)',
    auth: 'public',
    status: 204,
    response: null,
    idempotent: true,
  }),
  extendSession: defineRoute({
    method: 'POST',
    path: '/session/extend/',
    summary: "Move the session's end a session length on, never past its maximum age (then 401)",
    auth: 'user',
    status: 204,
    response: null,
    // Each call sets the end from now, so a repeat lands where one call would.
    idempotent: true,
  }),
  user: defineRoute({
    method: 'GET',
    path: '/user/',
    summary: 'The signed-in user',
    auth: 'user',
    status: 200,
    response: currentUser,
  }),
  updateProfile: defineRoute({
    method: 'POST',
    path: '/user/',
    summary: "Change the user's names, mobile, timezone and avatar (multipart form)",
    auth: 'user',
    form: profileUpdateFields,
    status: 200,
    response: currentUser,
  }),
  avatar: defineRoute({
    method: 'GET',
    path: '/user/avatar/:uid/',
    summary: "A user's avatar picture",
    auth: 'user',
    params: z.object({ uid: text().min(1).max(200) }),
    status: 200,
    response: 'binary',
  }),
  updateSettings: defineRoute({
    method: 'POST',
    path: '/user/update_settings/',
    summary: "Set the user's switches",
    auth: 'user',
    body: updateSettingsRequest,
    status: 200,
    response: currentUser,
    idempotent: true,
  }),
  updatePassword: defineRoute({
    method: 'POST',
    path: '/user/update_password/',
    summary: 'Change the password; ends every session of the user, this one included',
    auth: 'user',
    body: updatePasswordRequest,
    status: 200,
    response: told,
  }),
  forgotPassword: defineRoute({
    method: 'POST',
    path: '/user/forgot_password/',
    summary: 'Mail a password reset link (the answer is the same for an unknown address)',
    auth: 'public',
    body: forgotPasswordRequest,
    status: 200,
    response: told,
  }),
  resetPasswordCheck: defineRoute({
    method: 'POST',
    path: '/user/reset_password_check/',
    summary: 'Whether a reset link is still good',
    auth: 'public',
    body: tokenCheckRequest,
    status: 200,
    response: succeeded,
    idempotent: true,
  }),
  resetPassword: defineRoute({
    method: 'POST',
    path: '/user/reset_password/',
    summary: 'Set a new password with a reset link (the link then stops working)',
    auth: 'public',
    body: resetPasswordRequest,
    status: 200,
    response: succeeded,
  }),
  activationTokenCheck: defineRoute({
    method: 'POST',
    path: '/user/activation_token_check/',
    summary: "Whether an activation link is still good, with the invitation's details",
    auth: 'public',
    body: tokenCheckRequest,
    status: 200,
    response: activationTokenCheck,
    idempotent: true,
  }),
  activate: defineRoute({
    method: 'POST',
    path: '/user/activate/',
    summary: 'Activate an invited account: name, mobile and password (the link then stops working)',
    auth: 'public',
    body: activateRequest,
    status: 200,
    response: succeeded,
  }),
  memberships: defineRoute({
    method: 'GET',
    path: '/user/permissions/',
    summary: "The user's membership of each contract",
    auth: 'user',
    status: 200,
    response: z.array(membership),
  }),
};
