import { z } from 'zod';
import { defineRoute } from './api/route';
import { idParam, rowId, slugParam, text } from './api/fields';
import { adminMessages } from './contracts';

/** Row ids named in a request: bounded, so an absurd number is a 400 and never a query error. */
export const rowIds = z.array(rowId).max(10_000);

export const groupRequest = z.object({
  name: text(adminMessages.groupNameRequired)
    .trim()
    .min(1, adminMessages.groupNameRequired)
    .max(100),
  description: text().trim().max(500).default(''),
  /** With the group fields, the group's whole membership; omitted, membership is unchanged. */
  members: rowIds.optional(),
});

export const masterMembersRequest = z.object({ master_members: rowIds });
export const groupMembersRequest = z.object({
  group_id: rowId.optional(),
  members: rowIds,
});

export const groupMember = z.object({ id: z.number(), name: z.string(), email: z.string() });
export type GroupMember = z.infer<typeof groupMember>;

export const group = z.object({
  id: z.number(),
  name: z.string(),
  description: z.string(),
  members: z.array(groupMember),
});
export type Group = z.infer<typeof group>;

export const masterGroup = z.object({ members: z.array(groupMember) });

export const groupsResponse = z.object({ groups: z.array(group), master_group: masterGroup });
export type GroupsResponse = z.infer<typeof groupsResponse>;

const contractParams = z.object({ slug: slugParam });
const groupParams = contractParams.extend({ groupId: idParam });

/** The Groups List's calls; every one needs a project admin of the contract. */
export const groupRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/contracts/:slug/groups/',
    summary: "The contract's groups and its master group",
    auth: 'user',
    params: contractParams,
    status: 200,
    response: groupsResponse,
  }),
  add: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/addgroup/',
    summary: 'Create a group, optionally with its members',
    auth: 'user',
    params: contractParams,
    body: groupRequest,
    status: 201,
    response: group,
  }),
  edit: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/editgroup/:groupId/',
    summary: 'Rename a group, change its description, or set its whole membership',
    auth: 'user',
    params: groupParams,
    body: groupRequest,
    status: 200,
    response: group,
    idempotent: true,
  }),
  remove: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/removegroup/:groupId/',
    summary: 'Delete a group (its members stay in the contract)',
    auth: 'user',
    params: groupParams,
    status: 204,
    response: null,
  }),
  addMembers: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/groups/:groupId/',
    summary: 'Add members to a group',
    auth: 'user',
    params: groupParams,
    body: groupMembersRequest,
    status: 200,
    response: group,
    idempotent: true,
  }),
  removeMembers: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/groups/:groupId/remove/',
    summary: 'Take members out of a group',
    auth: 'user',
    params: groupParams,
    body: groupMembersRequest,
    status: 200,
    response: group,
    idempotent: true,
  }),
  addMasterMembers: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/mastermembers/add/',
    summary: 'Add users to the master group (they may send to everyone)',
    auth: 'user',
    params: contractParams,
    body: masterMembersRequest,
    status: 200,
    response: masterGroup,
    idempotent: true,
  }),
  removeMasterMembers: defineRoute({
    method: 'POST',
    path: '/contracts/:slug/mastermembers/',
    summary: 'Take users out of the master group',
    auth: 'user',
    params: contractParams,
    body: masterMembersRequest,
    status: 200,
    response: masterGroup,
    idempotent: true,
  }),
};
