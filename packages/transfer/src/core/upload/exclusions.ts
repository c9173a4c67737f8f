import type { ExclusionReason } from './plan';

/** Files the operating system leaves behind, never part of what the sender meant to send. */
const IGNORED_FILES = new Set(['.DS_Store', 'Thumbs.db']);
/** Folders whose whole content is the operating system's (macOS indexes and trash). */
const IGNORED_FOLDERS = new Set(['.Spotlight-V100', '.TemporaryItems', '.Trashes']);
/** macOS's AppleDouble companions (`._photo.jpg` beside `photo.jpg` on non-Apple disks). */
const APPLE_DOUBLE = '._';

/**
 * What a person sees as an emoji: characters drawn as emoji by default, text symbols turned into
 * emoji by the emoji variation selector (U+FE0F), and keycaps. Symbols such as © or ™ that
 * Unicode counts as pictographic but draws as text stay allowed: they are common in file names.
 */
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\uFE0F|\u20E3/u;

/**
 * Why a file is left out of an upload, or null when it is sent: its path is on the ignore list
 * (a file of that name in any folder, a file starting with `._`, or anything inside one of the
 * ignored folders), or contains an emoji.
 */
export function exclusionReason(path: string): ExclusionReason | null {
  const segments = path.split('/');
  const name = segments[segments.length - 1]!;
  if (IGNORED_FILES.has(name) || name.startsWith(APPLE_DOUBLE)) return 'ignored';
  if (segments.slice(0, -1).some((folder) => IGNORED_FOLDERS.has(folder))) return 'ignored';
  if (EMOJI.test(path)) return 'emoji';
  return null;
}
