import {
  adminMessages,
  messages,
  pinVerificationModes,
  type ContractSettings,
} from '@filerunner/protocol';

export type PinMode = (typeof pinVerificationModes)[number];

/** How the contract-level PIN modes are shown (spec: none, all users, adhoc). */
export const pinModeLabels: Record<PinMode, string> = {
  none: 'none',
  all: 'all users',
  adhoc: 'adhoc',
};

export const settingsMessages = {
  updated: adminMessages.settingsUpdated,
  saveFailed: messages.profile.settingsFailed,
  notificationsFailed: adminMessages.notificationsFailed,
  notificationFields: adminMessages.notificationFields,
  workersRange: 'Enter a whole number from 1 to 50',
} as const;

export const WORKERS_MIN = 1;
export const WORKERS_MAX = 50;

/** A notification row being edited; `key` keeps a row's inputs with it when another is removed. */
export interface NotificationDraft {
  key: number;
  name: string;
  email: string;
  enabled: boolean;
}

/** The part of the General tab saved with its Save button (the switches save on their own). */
export interface SettingsForm {
  pin_verification: PinMode;
  number_of_upload_workers: string;
  notifications: NotificationDraft[];
}

export function formOf(settings: ContractSettings): SettingsForm {
  return {
    pin_verification: settings.pin_verification,
    number_of_upload_workers: String(settings.number_of_upload_workers),
    notifications: settings.notifications.map((n, key) => ({ ...n, key })),
  };
}

export interface RowProblem {
  name?: boolean;
  email?: string;
}

export interface SettingsFormProblems {
  number_of_upload_workers?: string;
  /** The notifications section's message. */
  notifications?: string;
  rows: RowProblem[];
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The form's problems: upload workers a whole number from 1 to 50; every notification row needs
 * both name and email ('Please fill out all notification fields') and a valid email.
 */
export function settingsFormProblems(form: SettingsForm): SettingsFormProblems {
  const problems: SettingsFormProblems = { rows: [] };
  const workers = form.number_of_upload_workers.trim();
  if (!/^\d+$/.test(workers) || Number(workers) < WORKERS_MIN || Number(workers) > WORKERS_MAX) {
    problems.number_of_upload_workers = settingsMessages.workersRange;
  }
  let missing = false;
  let invalid = false;
  problems.rows = form.notifications.map((row) => {
    const name = row.name.trim();
    const email = row.email.trim();
    const rowProblem: RowProblem = {};
    if (!name) rowProblem.name = true;
    if (!email) rowProblem.email = settingsMessages.notificationFields;
    else if (!emailPattern.test(email)) rowProblem.email = adminMessages.invalidEmail;
    missing ||= !name || !email;
    invalid ||= Boolean(email) && !emailPattern.test(email);
    return rowProblem;
  });
  if (missing) problems.notifications = settingsMessages.notificationFields;
  else if (invalid) problems.notifications = adminMessages.invalidEmail;
  return problems;
}

export function hasProblems(problems: SettingsFormProblems): boolean {
  return Boolean(problems.number_of_upload_workers || problems.notifications);
}

/** The settings call's body for the form part. */
export function settingsBody(form: SettingsForm) {
  return {
    pin_verification: form.pin_verification,
    number_of_upload_workers: Number(form.number_of_upload_workers.trim()),
    notifications: form.notifications.map((n) => ({
      name: n.name.trim(),
      email: n.email.trim(),
      enabled: n.enabled,
    })),
  };
}

const sameNotifications = (form: SettingsForm, settings: ContractSettings) =>
  JSON.stringify(settingsBody(form).notifications) === JSON.stringify(settings.notifications);

/** Whether the notification rows differ from the saved ones. */
export function notificationsChanged(form: SettingsForm, settings: ContractSettings): boolean {
  return !sameNotifications(form, settings);
}

/** Whether the form differs from the saved settings: what the leave warning is about. */
export function settingsFormDirty(form: SettingsForm, settings: ContractSettings): boolean {
  return (
    form.pin_verification !== settings.pin_verification ||
    form.number_of_upload_workers.trim() !== String(settings.number_of_upload_workers) ||
    !sameNotifications(form, settings)
  );
}

/** The message of a failed save: the notifications one when rows were being saved (spec). */
export function saveFailureMessage(notificationRowsChanged: boolean): string {
  return notificationRowsChanged
    ? settingsMessages.notificationsFailed
    : settingsMessages.saveFailed;
}
