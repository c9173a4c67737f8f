import { describe, expect, it } from 'vitest';
import type { Contract } from '@filerunner/protocol';
import {
  contractSelected,
  contractSettingsReceived,
  loadContracts,
  pickContract,
  projectsReducer,
} from './projects-slice';

const contract = (slug: string) => ({ slug, name: slug }) as Contract;
const contracts = [contract('alpha'), contract('beta')];

describe('projects slice', () => {
  it('picks the remembered project if the user still has it, else the first', () => {
    expect(pickContract(contracts, 'beta')).toBe('beta');
    expect(pickContract(contracts, 'gone')).toBe('alpha');
    expect(pickContract(contracts, null)).toBe('alpha');
    expect(pickContract([], 'beta')).toBeNull();
  });

  it('selects on load and switches only to projects the user has', () => {
    const loaded = projectsReducer(
      undefined,
      loadContracts.fulfilled({ contracts, remembered: 'beta' }, 'req'),
    );
    expect(loaded.selectedSlug).toBe('beta');
    expect(projectsReducer(loaded, contractSelected('alpha')).selectedSlug).toBe('alpha');
    expect(projectsReducer(loaded, contractSelected('nope')).selectedSlug).toBe('beta');
  });

  it('takes saved settings into the contract they belong to', () => {
    const loaded = projectsReducer(
      undefined,
      loadContracts.fulfilled({ contracts, remembered: null }, 'req'),
    );
    const settings = { pin_verification: 'all' } as Contract['settings'];
    const next = projectsReducer(loaded, contractSettingsReceived({ slug: 'beta', settings }));
    expect(next.contracts[1]?.settings).toEqual(settings);
    expect(next.contracts[0]?.settings).toBeUndefined();
    expect(next.status).toBe('fulfilled');
  });

  it('takes saved storage locations too, and keeps them when the answer has none', () => {
    const loaded = projectsReducer(
      undefined,
      loadContracts.fulfilled({ contracts, remembered: null }, 'req'),
    );
    const settings = { pin_verification: 'all' } as Contract['settings'];
    const storage_app_groups = [{ id: 7, name: 'Europe' }];
    const saved = projectsReducer(
      loaded,
      contractSettingsReceived({ slug: 'beta', settings, storage_app_groups }),
    );
    expect(saved.contracts[1]?.storage_app_groups).toEqual(storage_app_groups);
    const next = projectsReducer(saved, contractSettingsReceived({ slug: 'beta', settings }));
    expect(next.contracts[1]?.storage_app_groups).toEqual(storage_app_groups);
  });
});
