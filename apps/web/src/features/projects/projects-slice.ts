import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Contract, ContractSettings } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import type { AsyncStatus } from '../../app/async-status';
import { readStored, storageKeys } from '../../app/local-storage';
import { createAppAsyncThunk } from '../../app/thunk';
import type { RootState } from '../../app/store';

/** The contracts (projects) the user belongs to, and which one the screens work on. */
export interface ProjectsState {
  contracts: Contract[];
  status: AsyncStatus;
  selectedSlug: string | null;
}

const initialState: ProjectsState = { contracts: [], status: 'idle', selectedSlug: null };

export const loadContracts = createAppAsyncThunk(
  'projects/load',
  async (_: void, { extra, rejectWithValue }) => {
    try {
      const contracts = await extra.api.get<Contract[]>('/contracts/');
      return { contracts, remembered: readStored<string>(storageKeys.selectedContract) };
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      return rejectWithValue({ status, message: String(error) });
    }
  },
);

/** The remembered project if the user still has it, else the first (spec). */
export function pickContract(contracts: Contract[], preferred: string | null): string | null {
  const match = contracts.find((c) => c.slug === preferred);
  return (match ?? contracts[0])?.slug ?? null;
}

const projectsSlice = createSlice({
  name: 'projects',
  initialState,
  reducers: {
    contractSelected(state, action: PayloadAction<string>) {
      if (state.contracts.some((c) => c.slug === action.payload)) {
        state.selectedSlug = action.payload;
      }
    },
    /**
     * The settings the server saved, as `POST /contracts/{slug}/settings/` answers them, and
     * the storage locations when given. Taken from that answer rather than by reloading the
     * list, which would put the shell back behind the loading splash and drop the form the admin
     * is on.
     */
    contractSettingsReceived(
      state,
      action: PayloadAction<{
        slug: string;
        settings: ContractSettings;
        storage_app_groups?: Contract['storage_app_groups'];
      }>,
    ) {
      const contract = state.contracts.find((c) => c.slug === action.payload.slug);
      if (!contract) return;
      contract.settings = action.payload.settings;
      if (action.payload.storage_app_groups) {
        contract.storage_app_groups = action.payload.storage_app_groups;
      }
    },
  },
  extraReducers: (builder) => {
    builder
      .addCase(loadContracts.pending, (state) => {
        state.status = 'pending';
      })
      .addCase(loadContracts.fulfilled, (state, action) => {
        state.status = 'fulfilled';
        state.contracts = action.payload.contracts;
        state.selectedSlug = pickContract(
          action.payload.contracts,
          state.selectedSlug ?? action.payload.remembered,
        );
      })
      .addCase(loadContracts.rejected, (state) => {
        state.status = 'rejected';
      });
  },
});

export const { contractSelected, contractSettingsReceived } = projectsSlice.actions;
export const projectsReducer = projectsSlice.reducer;

export function selectSelectedContract(state: RootState): Contract | null {
  const { contracts, selectedSlug } = state.projects;
  return contracts.find((c) => c.slug === selectedSlug) ?? null;
}
