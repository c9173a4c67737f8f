import { z } from 'zod';
import { defineRoute } from './api/route';
import { idParam, rowId, slugParam, text } from './api/fields';
import { adminMessages } from './contracts';
import { rowIds } from './groups';

const required = text(adminMessages.required).trim().min(1, adminMessages.required);
const email = required.pipe(z.email(adminMessages.invalidEmail)).transform((e) => e.toLowerCase());
const optionalMobile = text().trim().optional().nullable();

export const newContractUserRequest = z.object({
  first_name: required.max(150),
  last_name: required.max(150),
  email,
  mobile: optionalMobile,
  project_admin: z.boolean().default(false),
  send: z.boolean().default(false),
  add_to_master_group: z.boolean().default(false),
  groups: rowIds.default([]),
});

export const externalUsersRequest = z
  .array(z.object({ email, mobile: optionalMobile }))
  .min(1, 'Add at least one external user.')
  .max(500);

export const permissionUpdateRequest = z.object({
  id: rowId.optional(),
  send: z.boolean(),
  admin: z.boolean(),
  enabled: z.boolean(),
});

export const userDetailsRequest = z.object({ name: required.max(300) });

/**
 * A user as the Users screen lists them, with their permissions and groups in the contract. An
 * account is shared by every contract its person is in, so the names and mobile are this
 * contract's own for the person (the person's own ones only in the contract that created the
 * account), and `activated` says whether they are active here: invited until they sign in after
 * the contract added them.
 */
export const contractUser = z.object({
  id: z.number(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** First and last name, or the address when the contract knows no name. */
  name: z.string(),
  mobile: z.string().nullable(),
  admin: z.boolean(),
  send: z.boolean(),
  enabled: z.boolean(),
  master_group: z.boolean(),
  external: z.boolean(),
  activated: z.boolean(),
  groups: z.array(z.object({ id: z.number(), name: z.string() })),
  created_date: z.string(),
});
export type ContractUser = z.infer<typeof contractUser>;

const contractParams = z.object({ slug: slugParam });
const userParams = contractParams.extend({ userId: idParam });

/** The Users screen's calls; every one needs a project admin of the contract. */
export const userRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/contracts/:slug/permissions/',
    summary: "The contract's users with their permissions and groups",
    auth: 'user',
    params: contractParams,
    status: 200,
    response: z.array(contractUser),
  }),
  add: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/users/',
    summary: 'Add a person to the contract (a new address gets an activation mail)',
    auth: 'user',
    params: contractParams,
    body: newContractUserRequest,
    status: 201,
    response: contractUser,
  }),
  addExternal: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/users/external/',
    summary: 'Add partners reached by email and mobile, who receive but never send',
    auth: 'user',
    params: contractParams,
    body: externalUsersRequest,
    status: 201,
    response: z.array(contractUser),
  }),
  updatePermissions: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/permissions/:userId/',
    summary: "Set a user's send, admin and enabled permissions in the contract",
    auth: 'user',
    params: userParams,
    body: permissionUpdateRequest,
    status: 200,
    response: contractUser,
    idempotent: true,
  }),
  updateName: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/userdetails/:userId/',
    summary:
      'Rename a user as the contract knows them (first word the first name, the rest the last)',
    auth: 'user',
    params: userParams,
    body: userDetailsRequest,
    status: 200,
    response: contractUser,
    idempotent: true,
  }),
  remove: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/removeuser/:userId/',
    summary: 'Take a user out of the contract and its groups (their account and packages stay)',
    auth: 'user',
    params: userParams,
    status: 204,
    response: null,
  }),
};
