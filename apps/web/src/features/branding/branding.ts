import { adminMessages, brandingColours, type Branding } from '@filerunner/protocol';
import { projectInitials } from '../../components/project-initials';

export type BrandingColour = (typeof brandingColours)[number];

/** The palette's colours as the avatars paint them, in the spec's order. */
export const brandingColourHex: Record<BrandingColour, string> = {
  purple: '#7b1fa2',
  orange: '#ef6c00',
  yellow: '#f9a825',
  green: '#2e7d32',
  aqua: '#00acc1',
  teal: '#00796b',
  pink: '#d81b60',
};

/** Branding messages that only the web app shows. */
export const brandingMessages = {
  fetchFailed: 'Failed to fetch branding',
  updateFailed: 'Error updating custom branding',
  updated: adminMessages.brandingUpdated,
  pageError: "Sorry, we couldn't load your custom branding. Please try again in a few minutes.",
} as const;

/** Unbranded projects cycle through the palette by their place in the user's project list. */
export function defaultBrandingColour(index: number): BrandingColour {
  return brandingColours[index % brandingColours.length] ?? 'teal';
}

/**
 * The record a project without saved branding stands for (the service answers 404): no name,
 * alias or logo, and the colour its avatar already shows, so a first save keeps the look.
 */
export function emptyBranding(slug: string, index: number): Branding {
  return { name: '', slug, alias: '', colour: defaultBrandingColour(index), logo: null };
}

/**
 * The name a project goes by in the shell (project selector, top bar, branded layout): its
 * branding's name once an admin saved one, else the contract's own.
 */
export function brandedName(contractName: string, branding?: Branding | null): string {
  return branding?.name || contractName;
}

export interface AvatarLook {
  text: string;
  colour: string;
  logo: string | null;
}

/**
 * How a project's avatar looks: its branding where set, else initials on the palette colour.
 * `initials`, when given, are the ones told apart from the person's other projects
 * (`selectAvatarTexts`).
 */
export function avatarLook(
  name: string,
  index: number,
  branding?: Branding | null,
  initials?: string,
): AvatarLook {
  const colour = branding?.colour ?? defaultBrandingColour(index);
  return {
    text: branding?.alias || initials || projectInitials(name),
    colour: brandingColourHex[colour] ?? brandingColourHex.teal,
    logo: branding?.logo ?? null,
  };
}
