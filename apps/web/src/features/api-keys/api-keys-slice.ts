import { createSlice } from '@reduxjs/toolkit';
import { messages, type ApiKey, type CreatedApiKey } from '@filerunner/protocol';
import type { AsyncStatus } from '../../app/async-status';
import { createAppAsyncThunk } from '../../app/thunk';

/** The user's API keys. The secret of a new key is never kept here: it is shown once and dropped. */
export interface ApiKeysState {
  keys: ApiKey[];
  status: AsyncStatus;
  error: string | null;
}

const initialState: ApiKeysState = { keys: [], status: 'idle', error: null };

const failed = { status: 0, message: messages.apiKeys.failed };

export const loadApiKeys = createAppAsyncThunk(
  'apiKeys/load',
  async (_: void, { extra, rejectWithValue }) => {
    try {
      return await extra.api.get<ApiKey[]>('/api_keys/');
    } catch {
      return rejectWithValue(failed);
    }
  },
);

export const createApiKey = createAppAsyncThunk(
  'apiKeys/create',
  async (name: string, { extra, rejectWithValue }) => {
    try {
      return await extra.api.post<CreatedApiKey>('/api_keys/', { name });
    } catch {
      return rejectWithValue(failed);
    }
  },
);

export const revokeApiKey = createAppAsyncThunk(
  'apiKeys/revoke',
  async (uuid: string, { extra, rejectWithValue }) => {
    try {
      return await extra.api.post<ApiKey>(`/api_keys/${encodeURIComponent(uuid)}/`);
    } catch {
      return rejectWithValue(failed);
    }
  },
);

const apiKeysSlice = createSlice({
  name: 'apiKeys',
  initialState,
  reducers: {},
  extraReducers: (builder) => {
    builder
      .addCase(loadApiKeys.pending, (state) => {
        state.status = 'pending';
        state.error = null;
      })
      .addCase(loadApiKeys.fulfilled, (state, action) => {
        state.status = 'fulfilled';
        state.keys = action.payload;
      })
      .addCase(loadApiKeys.rejected, (state, action) => {
        state.status = 'rejected';
        state.error = action.payload?.message ?? messages.apiKeys.failed;
      })
      .addCase(createApiKey.fulfilled, (state, action) => {
        const { key: _secret, ...stored } = action.payload;
        state.keys.unshift(stored);
      })
      .addCase(revokeApiKey.fulfilled, (state, action) => {
        const index = state.keys.findIndex((k) => k.uuid === action.payload.uuid);
        if (index >= 0) state.keys[index] = action.payload;
      });
  },
});

export const apiKeysReducer = apiKeysSlice.reducer;
