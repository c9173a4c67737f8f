import { createSlice } from '@reduxjs/toolkit';

/**
 * Received and sent packages of the selected project. Package lists arrive with package sending;
 * until then the lists stay empty and nothing is unseen.
 */
export interface PackagesState {
  /** Received packages not opened yet, for the Inbox badge. */
  unseenCount: number;
}

const initialState: PackagesState = { unseenCount: 0 };

const packagesSlice = createSlice({ name: 'packages', initialState, reducers: {} });

export const packagesReducer = packagesSlice.reducer;
