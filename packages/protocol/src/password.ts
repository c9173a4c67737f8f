/**
 * The password rules, shared by the live requirements list in the web app
 * and the server, which enforces them again on every password it stores.
 */
export interface PasswordRequirement {
  id: 'length' | 'number' | 'lowercase' | 'uppercase' | 'special';
  label: string;
  met: (password: string) => boolean;
}

export const PASSWORD_SPECIAL_CHARACTERS = '!@#$%^&*';

export const passwordRequirements: readonly PasswordRequirement[] = [
  { id: 'length', label: 'At least 8 characters', met: (p) => p.length >= 8 },
  {
    id: 'number',
    label: '1 number (no two identical digits next to each other)',
    met: (p) => /\d/.test(p) && !/(\d)\1/.test(p),
  },
  { id: 'lowercase', label: '1 lowercase letter', met: (p) => /[a-z]/.test(p) },
  { id: 'uppercase', label: '1 uppercase letter', met: (p) => /[A-Z]/.test(p) },
  {
    id: 'special',
    label: `1 special character (${PASSWORD_SPECIAL_CHARACTERS})`,
    met: (p) => /[!@#$%^&*]/.test(p),
  },
];

/** The labels of the requirements a password does not meet yet (empty when it is acceptable). */
export function unmetPasswordRequirements(password: string): string[] {
  return passwordRequirements.filter((r) => !r.met(password)).map((r) => r.label);
}
