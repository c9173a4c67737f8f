import type { Contract } from '@filerunner/protocol';

/** The Settings screen's tabs, in order; `slug` is the tab's segment of the address. */
export const settingsTabs = [
  { slug: 'general', label: 'General' },
  { slug: 'custom-branding', label: 'Custom Branding' },
] as const;

export type SettingsTab = (typeof settingsTabs)[number];

/**
 * The tabs a project shows: Custom Branding only where the operator has enabled branding.
 * A tab not in this list is an unknown tab, which opens General.
 */
export function settingsTabsOf(contract: Pick<Contract, 'branding_enabled'>): SettingsTab[] {
  return settingsTabs.filter((t) => t.slug !== 'custom-branding' || contract.branding_enabled);
}
