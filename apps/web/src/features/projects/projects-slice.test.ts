import { describe, expect, it, vi } from 'vitest';
import { api, type Contract } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
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
  storage_quota: null,
  max_package_size: null,
});
const contracts = [contract('alpha'), contract('beta')];

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
    const { store } = storeAnswering(() => contracts);
    expect(selectContracts(store.getState())).toEqual([]);
    expect(selectSelectedContract(store.getState())).toBeNull();
    await store.dispatch(projectsApi.endpoints.contracts.initiate());
    expect(selectSelectedContract(store.getState())?.slug).toBe('alpha');
    store.dispatch(contractSelected('beta'));
    expect(selectSelectedContract(store.getState())?.slug).toBe('beta');
    store.dispatch(contractSelected('gone'));
    expect(selectSelectedContract(store.getState())?.slug).toBe('alpha');
  });

  it('takes saved settings and storage locations into their project, without a reload', async () => {
    const storage_app_groups = [{ id: 7, name: 'Europe' }];
    const { store, calls } = storeAnswering((route) =>
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
    const project = (slug: string) =>
      selectContracts(store.getState()).find((c) => c.slug === slug);
    // The saved settings are written into the loaded list once the save has answered.
    await vi.waitFor(() => expect(project('beta')?.settings.pin_verification).toBe('all'));
    expect(project('beta')?.storage_app_groups).toEqual(storage_app_groups);
    expect(project('alpha')?.settings.pin_verification).toBe('none');
    expect(calls.filter(({ route }) => route === api.contracts.list)).toHaveLength(1);
  });
});
