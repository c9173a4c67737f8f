import type { Contract, RecipientGroup } from '@filerunner/protocol';

/** What a test changes of `testContract`'s answer: any field, and any of its settings. */
export type ContractChange = Partial<Omit<Contract, 'settings'>> & {
  settings?: Partial<Contract['settings']>;
};

/**
 * A contract as the API lists it to a sender of it (not its admin), for tests: the demo contract
 * with four upload workers, ad-hoc recipients allowed and no PINs, as changed by `change`.
 */
export function testContract(change: ContractChange = {}): Contract {
  const { settings, ...fields } = change;
  return {
    id: 1,
    slug: 'demo',
    name: 'Demo Contract',
    service_id: 'svc',
    permissions: { send: true, admin: false },
    settings: {
      number_of_upload_workers: 4,
      use_slab_files: false,
      can_add_ad_hoc: true,
      pin_verification: 'none',
      can_extend_expiry: false,
      notifications: [],
      ...settings,
    },
    storage_app_groups: [],
    branding_enabled: false,
    storage_quota: null,
    max_package_size: null,
    ...fields,
  };
}

/**
 * The contract's group of partners, as the recipients call lists it to a sender: each member an
 * activated user without a mobile, named `First Last`.
 */
export function partnersGroup(...members: { id: number; name: string; email: string }[]) {
  const group: RecipientGroup = {
    name: 'Partners',
    master_group: false,
    verified_group: true,
    members: members.map(({ id, name, email }) => ({
      id,
      name,
      first_name: name.split(' ')[0]!,
      last_name: name.split(' ')[1]!,
      email,
      mobile: null,
      verified: true,
    })),
  };
  return group;
}
