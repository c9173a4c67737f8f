import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Branding } from '@filerunner/protocol';
import type { AsyncStatus } from '../../app/async-status';
import { createAppAsyncThunk } from '../../app/thunk';
import type { RootState } from '../../app/store';
import { brandingApi } from './branding-api';
import { brandingMessages } from './branding';

/** The saved brandings of the user's projects, which the shell paints avatars and logos with. */
export interface BrandingState {
  bySlug: Record<string, Branding>;
  status: AsyncStatus;
  error: string | null;
}

const initialState: BrandingState = { bySlug: {}, status: 'idle', error: null };

export const loadBrandings = createAppAsyncThunk(
  'branding/load',
  async (_: void, { extra, rejectWithValue }) => {
    try {
      return await brandingApi.all(extra.api);
    } catch {
      return rejectWithValue({ status: 0, message: brandingMessages.fetchFailed });
    }
  },
);

const brandingSlice = createSlice({
  name: 'branding',
  initialState,
  reducers: {
    /** A branding just saved or read on the Custom Branding tab. */
    brandingReceived(state, action: PayloadAction<Branding>) {
      state.bySlug[action.payload.slug] = action.payload;
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadBrandings.pending, (state) => {
        state.status = 'pending';
        state.error = null;
      })
      .addCase(loadBrandings.fulfilled, (state, action) => {
        state.status = 'fulfilled';
        state.bySlug = Object.fromEntries(action.payload.map((b) => [b.slug, b]));
      })
      .addCase(loadBrandings.rejected, (state, action) => {
        // Without brandings the shell shows the default avatars; nothing else depends on them.
        state.status = 'rejected';
        state.error = action.payload?.message ?? brandingMessages.fetchFailed;
      });
  },
});

export const { brandingReceived } = brandingSlice.actions;
export const brandingReducer = brandingSlice.reducer;

export function selectBranding(state: RootState, slug: string | null): Branding | null {
  return slug ? (state.branding.bySlug[slug] ?? null) : null;
}
