import type { Contract } from '@filerunner/protocol';
import type { CallerMembership } from '../memberships/memberships.repository';

/**
 * The contracts of these memberships that the user may use (the membership and the contract
 * both enabled), with their permissions, settings and storage locations.
 */
export function contractsFrom(list: CallerMembership[]): Contract[] {
  return list
    .filter((m) => m.enabled && m.contract.enabled)
    .map(({ contract, admin, send, storage_app_groups }) => ({
      id: contract.id,
      slug: contract.slug,
      name: contract.name,
      service_id: contract.service_id,
      permissions: { send, admin },
      settings: contract.settings,
      storage_app_groups,
      branding_enabled: contract.branding_enabled,
    }));
}
