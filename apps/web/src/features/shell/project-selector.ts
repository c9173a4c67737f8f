import type { Contract } from '@filerunner/protocol';

// The strip reserves 233 px for the rest of the sidebar, counts on at least
// 300 px, and gives each avatar about 100 px; at least 2 avatars always fit.
const RESERVED_HEIGHT = 233;
const MIN_HEIGHT = 300;
const AVATAR_HEIGHT = 100;
const MIN_AVATARS = 2;
/** More other projects than this get a search box in the dropdown. */
export const SEARCH_THRESHOLD = 4;

/** How many project avatars fit in a window of this height. */
export function avatarsThatFit(windowHeight: number): number {
  const available = Math.max(MIN_HEIGHT, windowHeight - RESERVED_HEIGHT);
  return Math.max(MIN_AVATARS, Math.floor(available / AVATAR_HEIGHT));
}

/**
 * Whether the strip shows only the current project and a '+N' button: when the layout is
 * collapsed, or when not every project fits the window.
 */
export function showsOverflowButton(
  projectCount: number,
  windowHeight: number,
  collapsed: boolean,
): boolean {
  return collapsed || projectCount > avatarsThatFit(windowHeight);
}

/** The projects whose name (as the person sees it) contains the query, ignoring case. */
export function filterProjects<P extends Pick<Contract, 'name'>>(
  projects: P[],
  query: string,
): P[] {
  const needle = query.trim().toLowerCase();
  return needle ? projects.filter((p) => p.name.toLowerCase().includes(needle)) : projects;
}
