import { createSlice } from '@reduxjs/toolkit';
import type { AsyncStatus } from '../../app/async-status';

/** The admin's users and groups of a project; managed from the Users screen once it exists. */
export interface UserManagementState {
  usersStatus: AsyncStatus;
  groupsStatus: AsyncStatus;
}

const initialState: UserManagementState = { usersStatus: 'idle', groupsStatus: 'idle' };

const userManagementSlice = createSlice({ name: 'userManagement', initialState, reducers: {} });

export const userManagementReducer = userManagementSlice.reducer;
