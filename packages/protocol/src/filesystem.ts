/** Filename constraints served by `GET /filesystem/constraints/` and checked by the send screen. */
export interface FilesystemConstraints {
  max_filename_length: number;
  invalid_filename_patterns: { regex: string; flags?: string }[];
}

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
