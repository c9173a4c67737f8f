/** A package name made safe as a file name: no path separators or control characters. */
export function downloadName(name: string): string {
  const clean = name
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/[/\\]/g, '_')
    .trim();
  return clean === '' || clean === '.' || clean === '..' ? 'package' : clean;
}
