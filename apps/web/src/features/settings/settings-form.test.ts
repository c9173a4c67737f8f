import { describe, expect, it } from 'vitest';
import type { ContractSettings } from '@filerunner/protocol';
import {
  formOf,
  hasProblems,
  notificationsChanged,
  saveFailureMessage,
  settingsBody,
  settingsFormDirty,
  settingsFormProblems,
  storageGroupProblems,
  storageGroupsChanged,
  type SavedSettings,
  type StorageGroupDraft,
} from './settings-form';

const settings: ContractSettings = {
  number_of_upload_workers: 10,
  use_slab_files: true,
  can_add_ad_hoc: false,
  pin_verification: 'none',
  can_extend_expiry: false,
  notifications: [{ name: 'Ops', email: 'ops@example.com', enabled: true }],
};
const saved: SavedSettings = { settings, storage_app_groups: [{ id: 4, name: 'Europe' }] };

describe('the general settings form', () => {
  it('starts from the saved settings and is not dirty', () => {
    const form = formOf(saved);
    expect(form.number_of_upload_workers).toBe('10');
    expect(settingsFormDirty(form, saved)).toBe(false);
    expect(hasProblems(settingsFormProblems(form))).toBe(false);
  });

  it('becomes dirty with a new PIN mode, worker count or notification row', () => {
    const form = formOf(saved);
    expect(settingsFormDirty({ ...form, pin_verification: 'all' }, saved)).toBe(true);
    expect(settingsFormDirty({ ...form, number_of_upload_workers: '11' }, saved)).toBe(true);
    const added = [...form.notifications, { key: 9, name: '', email: '', enabled: true }];
    expect(settingsFormDirty({ ...form, notifications: added }, saved)).toBe(true);
    expect(notificationsChanged({ ...form, notifications: added }, settings)).toBe(true);
    expect(notificationsChanged({ ...form, pin_verification: 'all' }, settings)).toBe(false);
  });

  it('needs both name and email on every notification row', () => {
    const form = formOf(saved);
    const rows = [
      { key: 0, name: 'Ops', email: '', enabled: true },
      { key: 1, name: ' ', email: 'a@b.co', enabled: true },
      { key: 2, name: 'Legal', email: 'nope', enabled: false },
    ];
    const problems = settingsFormProblems({ ...form, notifications: rows });
    expect(problems.notifications).toBe('Please fill out all notification fields');
    expect(problems.rows).toEqual([
      { email: 'Please fill out all notification fields' },
      { name: true },
      { email: 'Enter a valid email address.' },
    ]);
    const onlyInvalid = settingsFormProblems({ ...form, notifications: rows.slice(2) });
    expect(onlyInvalid.notifications).toBe('Enter a valid email address.');
  });

  it('needs a name on every storage location', () => {
    const rows: StorageGroupDraft[] = [
      { key: 0, id: 4, name: 'Europe' },
      { key: 1, name: '  ' },
      { key: 2, name: 'europe' },
    ];
    expect(storageGroupProblems(rows)).toEqual({
      message: 'Storage location name is required',
      rows: [true, true, true],
    });
    const problems = settingsFormProblems({ ...formOf(saved), storage_app_groups: rows });
    expect(problems.storage_app_groups).toBe('Storage location name is required');
    expect(hasProblems(problems)).toBe(true);
  });

  it('needs different storage location names, ignoring case and outer spaces', () => {
    const rows: StorageGroupDraft[] = [
      { key: 0, id: 4, name: 'Europe' },
      { key: 1, name: 'Americas' },
      { key: 2, name: ' EUROPE ' },
    ];
    expect(storageGroupProblems(rows)).toEqual({
      message: 'Storage location names must be different',
      rows: [true, false, true],
    });
    const distinct = [...rows.slice(0, 2), { key: 2, name: 'Europe West' }];
    expect(storageGroupProblems(distinct)).toEqual({ rows: [false, false, false] });
    expect(storageGroupProblems([])).toEqual({ rows: [] });
    const form = { ...formOf(saved), storage_app_groups: distinct };
    expect(hasProblems(settingsFormProblems(form))).toBe(false);
  });

  it('takes 1 to 50 upload workers', () => {
    const form = formOf(saved);
    for (const bad of ['0', '51', '', '2.5', 'x']) {
      expect(settingsFormProblems({ ...form, number_of_upload_workers: bad })).toHaveProperty(
        'number_of_upload_workers',
        'Enter a whole number from 1 to 50',
      );
    }
    for (const good of ['1', '50', ' 7 ']) {
      expect(hasProblems(settingsFormProblems({ ...form, number_of_upload_workers: good }))).toBe(
        false,
      );
    }
  });

  it('sends trimmed rows and a number of workers', () => {
    const form = {
      ...formOf(saved),
      number_of_upload_workers: ' 12 ',
      notifications: [{ key: 0, name: ' Ops ', email: ' ops@example.com ', enabled: false }],
    };
    expect(settingsBody(form, saved)).toEqual({
      pin_verification: 'none',
      number_of_upload_workers: 12,
      notifications: [{ name: 'Ops', email: 'ops@example.com', enabled: false }],
    });
  });

  it('sends the whole list of storage locations, trimmed, only when it changed', () => {
    const form = formOf(saved);
    expect(form.storage_app_groups).toEqual([{ key: 0, id: 4, name: 'Europe' }]);
    expect(storageGroupsChanged(form, saved)).toBe(false);
    const storage_app_groups = [
      { key: 0, id: 4, name: ' Europe (Frankfurt) ' },
      { key: 1, name: ' Americas ' },
    ];
    const changed = { ...form, storage_app_groups };
    expect(storageGroupsChanged(changed, saved)).toBe(true);
    expect(settingsFormDirty(changed, saved)).toBe(true);
    expect(settingsBody(changed, saved).storage_app_groups).toEqual([
      { id: 4, name: 'Europe (Frankfurt)' },
      { name: 'Americas' },
    ]);
    const removed = { ...form, storage_app_groups: [] };
    expect(settingsFormDirty(removed, saved)).toBe(true);
    expect(settingsBody(removed, saved).storage_app_groups).toEqual([]);
    const retyped = { ...form, storage_app_groups: [{ key: 0, id: 4, name: ' Europe ' }] };
    expect(storageGroupsChanged(retyped, saved)).toBe(false);
    expect(settingsBody(retyped, saved)).not.toHaveProperty('storage_app_groups');
  });

  it('names the failure after what was being saved', () => {
    expect(saveFailureMessage(true)).toBe('Sorry could not add notifications');
    expect(saveFailureMessage(false)).toBe(
      "Sorry, we couldn't save your settings. Please try again later.",
    );
  });
});
