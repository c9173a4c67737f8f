import { describe, expect, it } from 'vitest';
import {
  avatarProblem,
  permissionLabel,
  timezoneForPicker,
  timezoneForServer,
  timezoneOptions,
} from './profile-form';

describe('profile form rules', () => {
  it('shows UTC as Etc/GMT in the picker and maps it back on save', () => {
    expect(timezoneForPicker('UTC')).toBe('Etc/GMT');
    expect(timezoneForServer('Etc/GMT')).toBe('UTC');
    expect(timezoneForPicker('Europe/London')).toBe('Europe/London');
    expect(timezoneOptions()).toContain('Etc/GMT');
    expect(timezoneOptions()).toContain('Europe/London');
  });

  it('accepts png and jpeg avatars up to 1 MB', () => {
    expect(avatarProblem({ size: 1_000_000, type: 'image/png' })).toBeNull();
    expect(avatarProblem({ size: 10, type: 'image/jpeg' })).toBeNull();
    expect(avatarProblem({ size: 1_000_001, type: 'image/png' })).toBe(
      'File size cannot exceed more than 1 MB',
    );
    expect(avatarProblem({ size: 10, type: 'image/gif' })).not.toBeNull();
  });

  it('labels memberships by what they allow', () => {
    expect(permissionLabel({ send: true, enabled: true })).toBe('Send & Receive');
    expect(permissionLabel({ send: false, enabled: true })).toBe('Receive Only');
    expect(permissionLabel({ send: true, enabled: false })).toBe('Send Only');
    expect(permissionLabel({ send: false, enabled: false })).toBe('No Permissions');
  });
});
