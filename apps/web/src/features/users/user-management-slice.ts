import { createSlice } from '@reduxjs/toolkit';
import type { ContractUser, Group, GroupMember } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import type { AsyncStatus } from '../../app/async-status';
import { createAppAsyncThunk } from '../../app/thunk';
import { usersApi } from './users-api';

/** The users and groups of one project, as the admin's Users screen shows them. */
export interface UserManagementState {
  /** The project the lists belong to; answers for another project are dropped. */
  slug: string | null;
  users: ContractUser[];
  usersStatus: AsyncStatus;
  groups: Group[];
  masterMembers: GroupMember[];
  groupsStatus: AsyncStatus;
}

const initialState: UserManagementState = {
  slug: null,
  users: [],
  usersStatus: 'idle',
  groups: [],
  masterMembers: [],
  groupsStatus: 'idle',
};

const rejection = (error: unknown) => ({
  status: error instanceof ApiError ? error.status : 0,
  message: String(error),
});

export const loadContractUsers = createAppAsyncThunk(
  'userManagement/loadUsers',
  async (slug: string, { extra, rejectWithValue }) => {
    try {
      return await usersApi.list(extra.api, slug);
    } catch (error) {
      return rejectWithValue(rejection(error));
    }
  },
);

export const loadGroups = createAppAsyncThunk(
  'userManagement/loadGroups',
  async (slug: string, { extra, rejectWithValue }) => {
    try {
      return await usersApi.groups(extra.api, slug);
    } catch (error) {
      return rejectWithValue(rejection(error));
    }
  },
);

/**
 * Reloads both lists after a change: a user's groups show in the user list and a group's members
 * in the groups list, so one change can touch both.
 */
export const refreshUserManagement = createAppAsyncThunk(
  'userManagement/refresh',
  async (slug: string, { dispatch }) => {
    await Promise.all([dispatch(loadContractUsers(slug)), dispatch(loadGroups(slug))]);
  },
);

/** Switching to another project empties the lists so its neighbour's users never show. */
function switchProject(state: UserManagementState, slug: string) {
  if (state.slug === slug) return;
  Object.assign(state, { ...initialState, slug });
}

const userManagementSlice = createSlice({
  name: 'userManagement',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(loadContractUsers.pending, (state, action) => {
        switchProject(state, action.meta.arg);
        state.usersStatus = 'pending';
      })
      .addCase(loadContractUsers.fulfilled, (state, action) => {
        if (action.meta.arg !== state.slug) return;
        state.usersStatus = 'fulfilled';
        state.users = action.payload;
      })
      .addCase(loadContractUsers.rejected, (state, action) => {
        if (action.meta.arg === state.slug) state.usersStatus = 'rejected';
      })
      .addCase(loadGroups.pending, (state, action) => {
        switchProject(state, action.meta.arg);
        state.groupsStatus = 'pending';
      })
      .addCase(loadGroups.fulfilled, (state, action) => {
        if (action.meta.arg !== state.slug) return;
        state.groupsStatus = 'fulfilled';
        state.groups = action.payload.groups;
        state.masterMembers = action.payload.master_group.members;
      })
      .addCase(loadGroups.rejected, (state, action) => {
        if (action.meta.arg === state.slug) state.groupsStatus = 'rejected';
      });
  },
});

export const userManagementReducer = userManagementSlice.reducer;
