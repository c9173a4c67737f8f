import { adminMessages, withLeadingPlus } from '@filerunner/protocol';
import type { ExternalUser, NewContractUser } from './users-api';

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface NewUserForm {
  first_name: string;
  last_name: string;
  email: string;
  /** As the phone field gives it: E.164 or '' for none. */
  mobile: string;
  project_admin: boolean;
  send: boolean;
  add_to_master_group: boolean;
  groups: number[];
}

export const emptyNewUser: NewUserForm = {
  first_name: '',
  last_name: '',
  email: '',
  mobile: '',
  project_admin: false,
  send: false,
  add_to_master_group: false,
  groups: [],
};

export type NewUserErrors = Partial<Record<'first_name' | 'last_name' | 'email', string>>;

/** First name, last name and email are required; the server checks all of it again. */
export function newUserProblems(form: NewUserForm): NewUserErrors {
  const errors: NewUserErrors = {};
  if (!form.first_name.trim()) errors.first_name = adminMessages.required;
  if (!form.last_name.trim()) errors.last_name = adminMessages.required;
  const email = form.email.trim();
  if (!email) errors.email = adminMessages.required;
  else if (!emailPattern.test(email)) errors.email = adminMessages.invalidEmail;
  return errors;
}

/** The request body: trimmed names, the mobile with its leading + or left out. */
export function newUserBody(form: NewUserForm): NewContractUser {
  const mobile = withLeadingPlus(form.mobile);
  return {
    first_name: form.first_name.trim(),
    last_name: form.last_name.trim(),
    email: form.email.trim().toLowerCase(),
    ...(mobile ? { mobile } : {}),
    project_admin: form.project_admin,
    send: form.send,
    add_to_master_group: form.add_to_master_group,
    groups: form.groups,
  };
}

export interface ExternalRow {
  email: string;
  mobile: string;
}

/** Each row's email problem, or undefined for a good row. */
export function externalRowProblems(rows: ExternalRow[]): (string | undefined)[] {
  return rows.map((row) => {
    const email = row.email.trim();
    if (!email) return adminMessages.required;
    return emailPattern.test(email) ? undefined : adminMessages.invalidEmail;
  });
}

export function externalUsersBody(rows: ExternalRow[]): ExternalUser[] {
  return rows.map((row) => {
    const mobile = withLeadingPlus(row.mobile);
    return { email: row.email.trim().toLowerCase(), ...(mobile ? { mobile } : {}) };
  });
}

/** A group needs a name ('Group name is required'). */
export function groupProblems(fields: { name: string }): { name?: string } {
  return fields.name.trim() ? {} : { name: adminMessages.groupNameRequired };
}
