import { describe, expect, it } from 'vitest';
import { settingsTabsOf } from './settings-tabs';

describe('the Settings tabs', () => {
  it('show Custom Branding only when branding is enabled for the project', () => {
    const slugs = (branding_enabled: boolean) =>
      settingsTabsOf({ branding_enabled }).map((t) => t.slug);
    expect(slugs(true)).toEqual(['general', 'custom-branding']);
    expect(slugs(false)).toEqual(['general']);
  });
});
