import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { api, type ApiRoute, type Contract } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import type { ApiClient } from '../../app/api-client';
import type { RootState } from '../../app/store';
import { settingsApi } from '../settings/settings-api';
import { pickContract, projectsApi, selectContracts, selectSelectedContract } from './projects-api';
import { contractSelected, projectsReducer } from './projects-slice';

const settings = (pin: Contract['settings']['pin_verification']): Contract['settings'] => ({
  number_of_upload_workers: 14,
  use_slab_files: false,
  can_add_ad_hoc: false,
  pin_verification: pin,
  can_extend_expiry: false,
  notifications: [],
});
const contract = (slug: string): Contract => ({
  id: slug.length,
  slug,
  name: slug,
  service_id: '',
  permissions: { send: true, admin: true },
  settings: settings('none'),
  storage_app_groups: [],
  branding_enabled: true,
});
const contracts = [contract('alpha'), contract('beta')];

/** A store with the projects' selection and the API slice over a client answering `answer`. */
function storeAnswering(answer: (route: ApiRoute, args: unknown) => unknown) {
  const calls: ApiRoute[] = [];
  const client = {
    call: async (route: ApiRoute, args: unknown) => {
      calls.push(route);
      return answer(route, args);
    },
  };
  const store = configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer, projects: projectsReducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { api: client as ApiClient } } }).concat(
        apiSlice.middleware,
      ),
  });
  // The selectors read only these two areas of the app's state.
  const state = () => store.getState() as unknown as RootState;
  return { store, state, calls };
}

/** The cache writes that follow a save's answer. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('projects', () => {
  it('picks the remembered project if the user still has it, else the first', () => {
    expect(pickContract(contracts, 'beta')?.slug).toBe('beta');
    expect(pickContract(contracts, 'gone')?.slug).toBe('alpha');
    expect(pickContract(contracts, null)?.slug).toBe('alpha');
    expect(pickContract([], 'beta')).toBeNull();
  });

  it('remembers the project picked', () => {
    expect(projectsReducer(undefined, { type: 'init' }).selectedSlug).toBeNull();
    expect(projectsReducer(undefined, contractSelected('beta')).selectedSlug).toBe('beta');
  });

  it('selects from the loaded list: the picked project, else the first', async () => {
    const { store, state } = storeAnswering(() => contracts);
    expect(selectContracts(state())).toEqual([]);
    expect(selectSelectedContract(state())).toBeNull();
    await store.dispatch(projectsApi.endpoints.contracts.initiate());
    expect(selectSelectedContract(state())?.slug).toBe('alpha');
    store.dispatch(contractSelected('beta'));
    expect(selectSelectedContract(state())?.slug).toBe('beta');
    store.dispatch(contractSelected('gone'));
    expect(selectSelectedContract(state())?.slug).toBe('alpha');
  });

  it('takes saved settings and storage locations into their project, without a reload', async () => {
    const storage_app_groups = [{ id: 7, name: 'Europe' }];
    const { store, state, calls } = storeAnswering((route) =>
      route === api.contracts.list
        ? contracts
        : {
            detail: 'Settings updated successfully',
            settings: settings('all'),
            storage_app_groups,
          },
    );
    await store.dispatch(projectsApi.endpoints.contracts.initiate());
    await store.dispatch(
      settingsApi.endpoints.saveContractSettings.initiate({
        params: { slug: 'beta' },
        body: { pin_verification: 'all', storage_app_groups },
      }),
    );
    await settled();
    const [alpha, beta] = selectContracts(state());
    expect(beta?.settings.pin_verification).toBe('all');
    expect(beta?.storage_app_groups).toEqual(storage_app_groups);
    expect(alpha?.settings.pin_verification).toBe('none');
    expect(calls.filter((route) => route === api.contracts.list)).toHaveLength(1);
  });
});
