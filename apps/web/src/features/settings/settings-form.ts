import {
  adminMessages,
  limits,
  messages,
  pinVerificationModes,
  type Contract,
  type ContractSettings,
} from '@filerunner/protocol';

export type PinMode = (typeof pinVerificationModes)[number];

/** How the contract-level PIN modes are shown (none, all users, adhoc). */
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
  storageNameRequired: adminMessages.storageGroupNameRequired,
  storageDuplicate: adminMessages.storageGroupDuplicate,
} as const;

export const WORKERS_MIN = 1;
export const WORKERS_MAX = limits.uploadWorkersMax;
/** The server's limits on storage locations (the protocol's `storageAppGroupsField`). */
export const STORAGE_GROUPS_MAX = limits.storageGroupsMax;
export const STORAGE_GROUP_NAME_MAX = limits.storageGroupNameMax;

/** A notification row being edited; `key` keeps a row's inputs with it when another is removed. */
export interface NotificationDraft {
  key: number;
  name: string;
  email: string;
  enabled: boolean;
}

/** A storage location being edited: `id` is the saved location's, none for a new one. */
export interface StorageGroupDraft {
  key: number;
  id?: number;
  name: string;
}

/** The part of the General tab saved with its Save button (the switches save on their own). */
export interface SettingsForm {
  pin_verification: PinMode;
  number_of_upload_workers: string;
  notifications: NotificationDraft[];
  storage_app_groups: StorageGroupDraft[];
}

/** What the form starts from and is compared with: the contract's saved part of both. */
export type SavedSettings = Pick<Contract, 'settings' | 'storage_app_groups'>;

export function formOf({ settings, storage_app_groups }: SavedSettings): SettingsForm {
  return {
    pin_verification: settings.pin_verification,
    number_of_upload_workers: String(settings.number_of_upload_workers),
    notifications: settings.notifications.map((n, key) => ({ ...n, key })),
    storage_app_groups: storage_app_groups.map(({ id, name }, key) => ({ key, id, name })),
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
  /** The storage locations section's message. */
  storage_app_groups?: string;
  /** Which storage location names are wrong, row by row. */
  storageRows: boolean[];
}

export interface StorageGroupProblems {
  message?: string;
  rows: boolean[];
}

const storageKey = (name: string) => name.trim().toLowerCase();

/**
 * The storage locations' problems: every name filled in ('Storage location name is required')
 * and no two the same, ignoring case and outer spaces ('Storage location names must be
 * different'). Rows with a problem are marked; a missing name is reported before a duplicate.
 */
export function storageGroupProblems(groups: StorageGroupDraft[]): StorageGroupProblems {
  const counts = new Map<string, number>();
  for (const group of groups) {
    const key = storageKey(group.name);
    if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const missing = groups.some((g) => !storageKey(g.name));
  const duplicate = [...counts.values()].some((count) => count > 1);
  const problems: StorageGroupProblems = {
    rows: groups.map((g) => {
      const key = storageKey(g.name);
      return !key || (counts.get(key) ?? 0) > 1;
    }),
  };
  if (missing) problems.message = settingsMessages.storageNameRequired;
  else if (duplicate) problems.message = settingsMessages.storageDuplicate;
  return problems;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The form's problems: upload workers a whole number from 1 to 50; every notification row needs
 * both name and email ('Please fill out all notification fields') and a valid email.
 */
export function settingsFormProblems(form: SettingsForm): SettingsFormProblems {
  const storage = storageGroupProblems(form.storage_app_groups);
  const problems: SettingsFormProblems = { rows: [], storageRows: storage.rows };
  if (storage.message) problems.storage_app_groups = storage.message;
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
  return Boolean(
    problems.number_of_upload_workers || problems.notifications || problems.storage_app_groups,
  );
}

/** The storage locations as the server takes them: the whole list, an id on each saved one. */
export function storageGroupsBody(form: SettingsForm): { id?: number; name: string }[] {
  return form.storage_app_groups.map(({ id, name }) =>
    id === undefined ? { name: name.trim() } : { id, name: name.trim() },
  );
}

/** Whether the storage locations differ from the saved ones (added, removed or renamed). */
export function storageGroupsChanged(form: SettingsForm, saved: SavedSettings): boolean {
  const savedList = saved.storage_app_groups.map(({ id, name }) => ({ id, name }));
  return JSON.stringify(storageGroupsBody(form)) !== JSON.stringify(savedList);
}

/** The notification rows as the server takes them: trimmed. */
function notificationsBody(form: SettingsForm) {
  return form.notifications.map((n) => ({
    name: n.name.trim(),
    email: n.email.trim(),
    enabled: n.enabled,
  }));
}

/**
 * The settings call's body for the form part. The storage locations go only when they changed:
 * the server takes them as the whole list, so an unchanged copy could undo another admin's edit.
 */
export function settingsBody(form: SettingsForm, saved: SavedSettings) {
  return {
    pin_verification: form.pin_verification,
    number_of_upload_workers: Number(form.number_of_upload_workers.trim()),
    notifications: notificationsBody(form),
    ...(storageGroupsChanged(form, saved) ? { storage_app_groups: storageGroupsBody(form) } : {}),
  };
}

const sameNotifications = (form: SettingsForm, settings: ContractSettings) =>
  JSON.stringify(notificationsBody(form)) === JSON.stringify(settings.notifications);

/** Whether the notification rows differ from the saved ones. */
export function notificationsChanged(form: SettingsForm, settings: ContractSettings): boolean {
  return !sameNotifications(form, settings);
}

/** Whether the form differs from the saved settings: what the leave warning is about. */
export function settingsFormDirty(form: SettingsForm, saved: SavedSettings): boolean {
  const { settings } = saved;
  return (
    form.pin_verification !== settings.pin_verification ||
    form.number_of_upload_workers.trim() !== String(settings.number_of_upload_workers) ||
    !sameNotifications(form, settings) ||
    storageGroupsChanged(form, saved)
  );
}

/** The message of a failed save: the notifications one when rows were being saved. */
export function saveFailureMessage(notificationRowsChanged: boolean): string {
  return notificationRowsChanged
    ? settingsMessages.notificationsFailed
    : settingsMessages.saveFailed;
}
