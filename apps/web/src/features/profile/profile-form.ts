import { limits, messages, type Membership } from '@filerunner/protocol';

// The picker lists IANA zones, where UTC is spelled Etc/GMT; the server stores 'UTC'.
const PICKER_UTC = 'Etc/GMT';

export function timezoneForPicker(timezone: string): string {
  return timezone === 'UTC' ? PICKER_UTC : timezone;
}

export function timezoneForServer(timezone: string): string {
  return timezone === PICKER_UTC ? 'UTC' : timezone;
}

/** The zones the picker offers: what the browser knows, with Etc/GMT standing in for UTC. */
export function timezoneOptions(): string[] {
  const zones = Intl.supportedValuesOf('timeZone');
  return zones.includes(PICKER_UTC) ? zones : [PICKER_UTC, ...zones];
}

/** Why an avatar file cannot be used, or null when it can (png or jpeg, at most 1 MB). */
export function avatarProblem(file: { size: number; type: string }): string | null {
  if (!limits.avatarTypes.includes(file.type)) return messages.profile.avatarType;
  if (file.size > limits.avatarMaxBytes) {
    return `${messages.profile.avatarTooLarge} ${limits.avatarMaxBytes / 1_000_000} MB`;
  }
  return null;
}

/** The permission label of a membership (Send & Receive, Receive Only, Send Only, No Permissions). */
export function permissionLabel(membership: Pick<Membership, 'send' | 'enabled'>): string {
  // An enabled member can always receive; sending needs the send permission.
  const receive = membership.enabled;
  if (membership.send && receive) return 'Send & Receive';
  if (receive) return 'Receive Only';
  if (membership.send) return 'Send Only';
  return 'No Permissions';
}
