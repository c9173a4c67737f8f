/**
 * Up to three initials of a project name: the text of its avatar (`ProjectAvatar`) when its
 * branding sets no alias; '?' for a blank name.
 */
export function projectInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return '?';
  if (words.length === 1) return (words[0] ?? '').slice(0, 2).toUpperCase();
  return words
    .slice(0, 3)
    .map((w) => w[0])
    .join('')
    .toUpperCase();
}

/**
 * Other texts a project's avatar may read when its initials are taken, best first: the first
 * word's first letter with one of its later letters and the last word's initial ('Fifth
 * Project': FIP, FFP, ...), then the first two initials with a later letter of the last word;
 * a single word gives pairs of its first and a later letter, then three letters.
 */
function initialsAlternatives(name: string): string[] {
  const words = name.trim().toUpperCase().split(/\s+/).filter(Boolean);
  const first = words[0] ?? '';
  const last = words.at(-1) ?? '';
  const alternatives: string[] = [];
  if (words.length > 1) {
    for (const letter of first.slice(1)) alternatives.push(`${first[0]}${letter}${last[0]}`);
    for (const letter of last.slice(1)) alternatives.push(`${first[0]}${last[0]}${letter}`);
  } else {
    for (const letter of first.slice(2)) alternatives.push(`${first[0]}${letter}`);
    if (first.length > 2) alternatives.push(first.slice(0, 3));
  }
  return alternatives;
}

/**
 * The avatar texts of one person's projects, in their order: a branding's alias as the admin
 * set it, else the project's initials, changed where they would read like an avatar already
 * in the list. 'Fourth Project' and 'Fifth Project' both have the initials FP; side by side in
 * the project strip they could not be told apart, so the second reads FIP.
 */
export function distinctAvatarTexts(
  projects: readonly { name: string; alias?: string | null }[],
): string[] {
  const taken = new Set(projects.map((p) => p.alias).filter((alias): alias is string => !!alias));
  return projects.map(({ name, alias }) => {
    if (alias) return alias;
    const initials = projectInitials(name);
    const candidates = [initials, ...initialsAlternatives(name)];
    const text =
      candidates.find((c) => !taken.has(c)) ??
      Array.from({ length: projects.length + 1 }, (_, n) => `${initials[0]}${n + 2}`).find(
        (c) => !taken.has(c),
      ) ??
      initials;
    taken.add(text);
    return text;
  });
}
