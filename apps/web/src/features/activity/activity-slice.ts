import { createSlice } from '@reduxjs/toolkit';
import type { AsyncStatus } from '../../app/async-status';

/** The admin's activity view of a project; its package cards arrive with package sending. */
export interface ActivityState {
  status: AsyncStatus;
  page: number;
  search: string;
}

const initialState: ActivityState = { status: 'idle', page: 1, search: '' };

const activitySlice = createSlice({ name: 'activity', initialState, reducers: {} });

export const activityReducer = activitySlice.reducer;
