import {
  adminMessages,
  aliasOf,
  limits,
  type Branding,
  type BrandingChange,
} from '@filerunner/protocol';

export interface BrandingForm {
  name: string;
  alias: string;
  colour: Branding['colour'];
  /** The logo shown: a data URL, or null for none. */
  logo: string | null;
  logoChanged: boolean;
}

/** The form over a saved branding; an empty record starts from the project's name. */
export function brandingFormOf(branding: Branding, projectName: string): BrandingForm {
  return {
    name: branding.name || projectName.slice(0, limits.brandingNameMax),
    alias: branding.alias,
    colour: branding.colour,
    logo: branding.logo,
    logoChanged: false,
  };
}

/** What an alias input becomes as it is typed: capitals only, at most 3. */
export function aliasInput(value: string): string {
  return value
    .toUpperCase()
    .replace(/[^A-Z]/g, '')
    .slice(0, 3);
}

/** Name required and at most 50 characters; alias empty (initials) or 2 to 3 capitals. */
export function brandingProblems(form: Pick<BrandingForm, 'name' | 'alias'>): {
  name?: string;
  alias?: string;
} {
  const problems: { name?: string; alias?: string } = {};
  const name = form.name.trim();
  if (!name) problems.name = adminMessages.required;
  else if (name.length > limits.brandingNameMax) problems.name = adminMessages.brandingNameLength;
  if (form.alias && !/^[A-Z]{2,3}$/.test(form.alias)) problems.alias = adminMessages.aliasLength;
  return problems;
}

/**
 * The errors shown after an edit once Save has been tried: the name and alias are checked again
 * as the person types (react-hook-form's reValidateMode 'onChange'), so a corrected value clears
 * its error at once and a new mistake shows at once, rather than at the next Save. Other
 * errors (the logo's, the server's) stay until they are dealt with.
 */
export function recheckedProblems<E extends { name?: string; alias?: string }>(
  shown: E,
  form: Pick<BrandingForm, 'name' | 'alias'>,
): E {
  const now = brandingProblems(form);
  return { ...shown, name: now.name, alias: now.alias };
}

/** A logo file's problem: image types only, at most 5 MB, checked before upload. */
export function logoProblem(file: { size: number; type: string }): string | null {
  if (!file.type.startsWith('image/') || file.size === 0 || file.size > limits.logoMaxBytes) {
    return adminMessages.logoRejected;
  }
  return null;
}

/** The PATCH body: an empty alias falls back to the name's initials; the logo only if changed. */
export function brandingChange(form: BrandingForm): BrandingChange {
  const name = form.name.trim();
  return {
    name,
    alias: form.alias || aliasOf(name),
    colour: form.colour,
    ...(form.logoChanged ? { logo: form.logo } : {}),
  };
}

/** Whether the form differs from what `brandingFormOf` gave: what the leave warning is about. */
export function brandingFormDirty(form: BrandingForm, initial: BrandingForm): boolean {
  return (
    form.logoChanged ||
    form.name !== initial.name ||
    form.alias !== initial.alias ||
    form.colour !== initial.colour
  );
}
