import { z } from 'zod';
import { defineRoute } from './api/route';

/** Filename constraints served by `GET /filesystem/constraints/` and checked by the send screen. */
export const filesystemConstraints = z.object({
  max_filename_length: z.number(),
  /** JavaScript regular expressions; a name matching any of them is refused. */
  invalid_filename_patterns: z.array(z.object({ regex: z.string(), flags: z.string().optional() })),
});
export type FilesystemConstraints = z.infer<typeof filesystemConstraints>;

/**
 * Names that cannot be written on the file systems recipients unpack to (Windows being the
 * strictest): reserved characters, control characters, reserved device names, trailing dot or space.
 */
export const defaultFilesystemConstraints: FilesystemConstraints = {
  max_filename_length: 255,
  invalid_filename_patterns: [
    { regex: '[<>:"\\\\|?*]' },
    { regex: '[\\u0000-\\u001f]' },
    { regex: '^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\\..*)?$', flags: 'i' },
    { regex: '[. ]$' },
  ],
};

export const filenameMessages = {
  tooLong: (max: number) => `Filename exceeds maximum length of ${max} characters`,
  invalid: 'Filename contains invalid characters or patterns',
  segment: (segment: string, reason: string) => `Invalid path segment "${segment}": ${reason}`,
} as const;

/** Why one file or folder name breaks the constraints, or null when it is fine. */
export function filenameProblem(name: string, constraints: FilesystemConstraints): string | null {
  if ([...name].length > constraints.max_filename_length) {
    return filenameMessages.tooLong(constraints.max_filename_length);
  }
  const invalid = constraints.invalid_filename_patterns.some((p) =>
    new RegExp(p.regex, p.flags).test(name),
  );
  return invalid ? filenameMessages.invalid : null;
}

/** The problems of a '/'-separated path, one per offending segment (checked per segment). */
export function pathProblems(path: string, constraints: FilesystemConstraints): string[] {
  return path.split('/').flatMap((segment) => {
    const reason = filenameProblem(segment, constraints);
    return reason ? [filenameMessages.segment(segment, reason)] : [];
  });
}

/** Characters Windows refuses in names, and control characters: each becomes '_'. */
const unsafeCharacter = (c: string) => c < ' ' || '<>:"\\|?*/'.includes(c);
/** The names Windows opens as devices, whatever the extension or case: never a file's name. */
export const RESERVED_DEVICE_NAME = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\..*)?$/i;

/**
 * A name close to `name` that meets the constraints, to suggest when `name` is refused: unsafe
 * characters replaced by '_', trailing dots and spaces dropped, a reserved device name given a
 * leading '_', and a long name shortened with its extension kept. Constraints a server adds
 * beyond the default ones are met by reducing the name to letters, digits, '.', '-' and '_'
 * (the names every file system takes). Null when no such name could be made.
 */
export function safeFilename(name: string, constraints: FilesystemConstraints): string | null {
  if (filenameProblem(name, constraints) === null) return name;
  const fits = (candidate: string) =>
    candidate !== '' && filenameProblem(candidate, constraints) === null;
  let safe = [...name]
    .map((c) => (unsafeCharacter(c) ? '_' : c))
    .join('')
    .replace(/[. ]+$/, '');
  if (RESERVED_DEVICE_NAME.test(safe)) safe = `_${safe}`;
  safe = shortened(safe, constraints.max_filename_length);
  if (fits(safe)) return safe;
  const plain = shortened(
    safe
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/[.]+$/, ''),
    constraints.max_filename_length,
  );
  return fits(plain) ? plain : null;
}

/** `name` within `max` characters (code points), its extension kept when it has a short one. */
function shortened(name: string, max: number): string {
  const chars = [...name];
  if (chars.length <= max) return name;
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? [...name.slice(dot)] : [];
  if (ext.length === 0 || ext.length > 16 || ext.length >= max) return chars.slice(0, max).join('');
  const stem = [...name.slice(0, dot)].slice(0, max - ext.length);
  return [...stem, ...ext].join('');
}

export const filesystemRoutes = {
  constraints: defineRoute({
    method: 'GET',
    path: '/filesystem/constraints/',
    // Public: the external package page checks names before any login.
    summary: 'The filename constraints uploads are checked against',
    auth: 'public',
    status: 200,
    response: filesystemConstraints,
  }),
};
