import { describe, expect, it } from 'vitest';
import type { Branding } from '@filerunner/protocol';
import { avatarLook, brandingColourHex, defaultBrandingColour, emptyBranding } from './branding';

describe('project branding', () => {
  it('cycles unbranded projects through the palette', () => {
    expect(defaultBrandingColour(0)).toBe('purple');
    expect(defaultBrandingColour(6)).toBe('pink');
    expect(defaultBrandingColour(7)).toBe('purple');
  });

  it('reads a missing branding as an empty record keeping the default colour', () => {
    expect(emptyBranding('demo', 1)).toEqual({
      name: '',
      slug: 'demo',
      alias: '',
      colour: 'orange',
      logo: null,
    });
  });

  it('paints the avatar from the branding where set, else from the name and place', () => {
    expect(avatarLook('Demo Contract', 5)).toEqual({
      text: 'DC',
      colour: brandingColourHex.teal,
      logo: null,
    });
    const branding: Branding = {
      name: 'Acme',
      slug: 'demo',
      alias: 'ACM',
      colour: 'pink',
      logo: 'data:image/jpeg;base64,AAAA',
    };
    expect(avatarLook('Demo Contract', 5, branding)).toEqual({
      text: 'ACM',
      colour: brandingColourHex.pink,
      logo: 'data:image/jpeg;base64,AAAA',
    });
    expect(avatarLook('Demo Contract', 0, { ...branding, alias: '' }).text).toBe('DC');
  });
});
