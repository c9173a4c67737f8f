import { createSlice } from '@reduxjs/toolkit';
import type { AsyncStatus } from '../../app/async-status';

/**
 * Received and sent packages of the selected project. Package lists arrive with package sending;
 * until then the lists stay empty and nothing is unseen.
 */
export interface PackagesState {
  receivedStatus: AsyncStatus;
  sentStatus: AsyncStatus;
  /** Received packages not opened yet, for the Inbox badge. */
  unseenCount: number;
}

const initialState: PackagesState = { receivedStatus: 'idle', sentStatus: 'idle', unseenCount: 0 };

const packagesSlice = createSlice({ name: 'packages', initialState, reducers: {} });

export const packagesReducer = packagesSlice.reducer;
