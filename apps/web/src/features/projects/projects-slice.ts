import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import { readStored, storageKeys } from '../../app/local-storage';

/**
 * Which project the screens work on. The list itself is the contracts query's; a slug the user
 * no longer has (or none) falls back to their first project when it is read.
 */
export interface ProjectsState {
  selectedSlug: string | null;
}

const projectsSlice = createSlice({
  name: 'projects',
  // Read again on every reset, so the next sign-in on this browser returns to the same project.
  initialState: (): ProjectsState => ({
    selectedSlug: readStored<string>(storageKeys.selectedContract),
  }),
  reducers: {
    /** A project the user picked from their list. */
    contractSelected(state, action: PayloadAction<string>) {
      state.selectedSlug = action.payload;
    },
  },
});

export const { contractSelected } = projectsSlice.actions;
export const projectsReducer = projectsSlice.reducer;
