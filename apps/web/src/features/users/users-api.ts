import type { ContractUser, Group, GroupMember, GroupsResponse } from '@filerunner/protocol';
import type { ApiClient } from '../../app/api-client';

/** `POST /contracts/{slug}/users/`: a person to add to the project. */
export interface NewContractUser {
  first_name: string;
  last_name: string;
  email: string;
  mobile?: string;
  project_admin: boolean;
  send: boolean;
  add_to_master_group: boolean;
  groups: number[];
}

export interface ExternalUser {
  email: string;
  mobile?: string;
}

export interface GroupFields {
  name: string;
  description: string;
  /** With the group fields, the group's whole membership; omitted, membership is unchanged. */
  members?: number[];
}

export interface Permissions {
  send: boolean;
  admin: boolean;
  enabled: boolean;
}

const base = (slug: string) => `/contracts/${encodeURIComponent(slug)}`;

/** The calls of the Users screen (spec 000 section 7, "Contracts, users, groups"). */
export const usersApi = {
  list: (api: ApiClient, slug: string) => api.get<ContractUser[]>(`${base(slug)}/permissions/`),
  add: (api: ApiClient, slug: string, user: NewContractUser) =>
    api.post<ContractUser>(`${base(slug)}/users/`, user),
  addExternal: (api: ApiClient, slug: string, users: ExternalUser[]) =>
    api.post<ContractUser[]>(`${base(slug)}/users/external/`, users),
  updatePermissions: (api: ApiClient, slug: string, id: number, permissions: Permissions) =>
    api.post<ContractUser>(`${base(slug)}/permissions/${id}/`, { id, ...permissions }),
  updateName: (api: ApiClient, slug: string, id: number, name: string) =>
    api.post<ContractUser>(`${base(slug)}/userdetails/${id}/`, { name }),
  remove: (api: ApiClient, slug: string, id: number) =>
    api.post<undefined>(`${base(slug)}/removeuser/${id}/`),

  groups: (api: ApiClient, slug: string) => api.get<GroupsResponse>(`${base(slug)}/groups/`),
  addGroup: (api: ApiClient, slug: string, fields: GroupFields) =>
    api.post<Group>(`${base(slug)}/addgroup/`, fields),
  editGroup: (api: ApiClient, slug: string, id: number, fields: GroupFields) =>
    api.post<Group>(`${base(slug)}/editgroup/${id}/`, fields),
  removeGroup: (api: ApiClient, slug: string, id: number) =>
    api.post<undefined>(`${base(slug)}/removegroup/${id}/`),
  addGroupMembers: (api: ApiClient, slug: string, id: number, members: number[]) =>
    api.post<Group>(`${base(slug)}/groups/${id}/`, { group_id: id, members }),
  removeGroupMembers: (api: ApiClient, slug: string, id: number, members: number[]) =>
    api.post<Group>(`${base(slug)}/groups/${id}/remove/`, { members }),
  addMasterMembers: (api: ApiClient, slug: string, ids: number[]) =>
    api.post<{ members: GroupMember[] }>(`${base(slug)}/mastermembers/add/`, {
      master_members: ids,
    }),
  /** Takes the listed users out of the master group (see docs/decisions/001). */
  removeMasterMembers: (api: ApiClient, slug: string, ids: number[]) =>
    api.post<{ members: GroupMember[] }>(`${base(slug)}/mastermembers/`, { master_members: ids }),
};
