import { api, type ContractUser, type RouteArgs } from '@filerunner/protocol';
import { apiSlice, mutation, query } from '../../app/api';

/** What the add-user call takes, as the Add User dialog builds it. */
export type NewContractUser = RouteArgs<typeof api.users.add>['body'];
/** One row of the add-external-users call. */
export type ExternalUser = RouteArgs<typeof api.users.addExternal>['body'][number];

/**
 * A user's groups show in the user list and a group's members in the groups list, and both
 * decide whom senders may reach: every change refetches all three. A refused change refetches
 * too, so a list another admin changed meanwhile is shown as it is.
 */
const membership = ['ContractUsers', 'Groups', 'Recipients'] as const;
const changes = { invalidatesTags: [...membership] };

/**
 * A row's change answers with the user as saved. Written into the cached list at once, the list
 * shows it as soon as edit mode ends rather than after the reload (a refused change only reloads).
 */
function showSaved(slug: string, saved: ContractUser) {
  return usersApi.util.updateQueryData('contractUsers', { params: { slug } }, (list) => {
    const index = list.findIndex((u) => u.id === saved.id);
    if (index >= 0) list[index] = saved;
  });
}

/** The calls of the Users screen: the project's users, its groups and the master group. */
export const usersApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    contractUsers: query(build, api.users.list, { providesTags: ['ContractUsers'] }),
    addContractUser: mutation(build, api.users.add, changes),
    addExternalUsers: mutation(build, api.users.addExternal, changes),
    updatePermissions: mutation(build, api.users.updatePermissions, {
      ...changes,
      onAnswer: (saved, { params }, dispatch) => dispatch(showSaved(params.slug, saved)),
    }),
    updateUserName: mutation(build, api.users.updateName, {
      ...changes,
      onAnswer: (saved, { params }, dispatch) => dispatch(showSaved(params.slug, saved)),
    }),
    removeContractUser: mutation(build, api.users.remove, changes),

    groups: query(build, api.groups.list, { providesTags: ['Groups'] }),
    addGroup: mutation(build, api.groups.add, changes),
    editGroup: mutation(build, api.groups.edit, changes),
    removeGroup: mutation(build, api.groups.remove, changes),
    addGroupMembers: mutation(build, api.groups.addMembers, changes),
    removeGroupMembers: mutation(build, api.groups.removeMembers, changes),
    addMasterMembers: mutation(build, api.groups.addMasterMembers, changes),
    /** Takes the listed users out of the master group (see docs/decisions/001). */
    removeMasterMembers: mutation(build, api.groups.removeMasterMembers, changes),
  }),
});

export const {
  useContractUsersQuery,
  useAddContractUserMutation,
  useAddExternalUsersMutation,
  useUpdatePermissionsMutation,
  useUpdateUserNameMutation,
  useRemoveContractUserMutation,
  useGroupsQuery,
  useAddGroupMutation,
  useEditGroupMutation,
  useRemoveGroupMutation,
  useAddGroupMembersMutation,
  useRemoveGroupMembersMutation,
  useAddMasterMembersMutation,
  useRemoveMasterMembersMutation,
} = usersApi;
