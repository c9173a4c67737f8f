import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { messages, type FilesystemConstraints } from '@filerunner/protocol';
import { readStored, storageKeys, writeStored } from '../../app/local-storage';
import { createAppAsyncThunk } from '../../app/thunk';

/** Filename constraints the send screen checks against (spec: Idle, Loading, Failed). */
export interface FilesystemState {
  constraints: FilesystemConstraints | null;
  status: 'Idle' | 'Loading' | 'Failed';
  error: string | null;
}

const initialState: FilesystemState = { constraints: null, status: 'Idle', error: null };

export const loadConstraints = createAppAsyncThunk(
  'filesystem/loadConstraints',
  async (_: void, { extra, dispatch, rejectWithValue }) => {
    try {
      const constraints = await extra.api.get<FilesystemConstraints>('/filesystem/constraints/');
      writeStored(storageKeys.constraints, constraints);
      return constraints;
    } catch {
      console.error(messages.constraints.unavailable);
      // The last constraints this browser saw are still the best guess (spec).
      const cached = readStored<FilesystemConstraints>(storageKeys.constraints);
      if (cached) dispatch(cachedConstraintsUsed(cached));
      return rejectWithValue({ status: 0, message: messages.constraints.failed });
    }
  },
);

const filesystemSlice = createSlice({
  name: 'filesystem',
  initialState,
  reducers: {
    cachedConstraintsUsed(state, action: PayloadAction<FilesystemConstraints>) {
      state.constraints ??= action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadConstraints.pending, (state) => {
        state.status = 'Loading';
        state.error = null;
      })
      .addCase(loadConstraints.fulfilled, (state, action) => {
        state.status = 'Idle';
        state.constraints = action.payload;
      })
      .addCase(loadConstraints.rejected, (state, action) => {
        state.status = 'Failed';
        state.error = action.payload?.message ?? messages.constraints.failed;
      });
  },
});

const { cachedConstraintsUsed } = filesystemSlice.actions;
export const filesystemReducer = filesystemSlice.reducer;
