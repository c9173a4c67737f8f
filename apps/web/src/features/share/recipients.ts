import type { RecipientGroup, RecipientUser } from '@filerunner/protocol';
import type { Recipient } from './share-form';

/** What the recipients picker offers: a whole group, one person of a group, or a new address. */
export type RecipientOption =
  | { kind: 'group'; group: string; label: string; members: RecipientUser[] }
  | { kind: 'user'; group: string; label: string; user: RecipientUser }
  | { kind: 'adhoc'; group: string; label: string; email: string };

export const pickerTexts = {
  adHocHint: 'New user? Enter valid email to add.',
  noOptions: 'No options found',
  adHocGroup: 'New user',
} as const;

/** The picker's options, by group (the master group first, as the server lists them). */
export function recipientOptions(groups: readonly RecipientGroup[]): RecipientOption[] {
  return groups.flatMap((g) => {
    const everyone: RecipientOption[] =
      g.members.length > 1
        ? [
            {
              kind: 'group',
              group: g.name,
              label: `Everyone in ${g.name} (${g.members.length})`,
              members: g.members,
            },
          ]
        : [];
    return [
      ...everyone,
      ...g.members.map((user): RecipientOption => ({
        kind: 'user',
        group: g.name,
        label: `${user.name} <${user.email}>`,
        user,
      })),
    ];
  });
}

// The pattern browsers use for <input type=email>: what a person would call a valid address.
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;

/** A typed address, trimmed and lower-cased, or null when it is not a valid email. */
export function adHocEmail(typed: string): string | null {
  const email = typed.trim().toLowerCase();
  return EMAIL.test(email) ? email : null;
}

/** A contract user as a recipient, with the contract's default mobile for them. */
export function recipientOf(user: RecipientUser): Recipient {
  return {
    id: user.id,
    email: user.email.toLowerCase(),
    name: user.name,
    verified: user.verified,
    mobile: user.mobile ?? '',
  };
}

/**
 * The recipients an option adds. A typed address that belongs to someone the sender may reach
 * is that person; any other is ad-hoc, with a temporary negative id below every one in use.
 */
export function recipientsOf(
  option: RecipientOption,
  groups: readonly RecipientGroup[],
  current: readonly Recipient[],
): Recipient[] {
  if (option.kind === 'group') return option.members.map(recipientOf);
  if (option.kind === 'user') return [recipientOf(option.user)];
  const known = groups
    .flatMap((g) => g.members)
    .find((u) => u.email.toLowerCase() === option.email);
  if (known) return [recipientOf(known)];
  const lowest = Math.min(0, ...current.map((r) => r.id));
  return [{ id: lowest - 1, email: option.email, name: option.email, verified: false, mobile: '' }];
}

/** `current` with `added` appended, each person once (by id, and by address). */
export function withRecipients(
  current: readonly Recipient[],
  added: readonly Recipient[],
): Recipient[] {
  const result = [...current];
  for (const recipient of added) {
    const taken = result.some((r) => r.id === recipient.id || r.email === recipient.email);
    if (!taken) result.push(recipient);
  }
  return result;
}

/**
 * The options to show for what was typed: the matching people and groups not yet chosen, and
 * the typed address as a new recipient when the contract allows ad-hoc recipients and nobody
 * listed has it.
 */
export function filterRecipientOptions(
  options: readonly RecipientOption[],
  typed: string,
  chosen: readonly Recipient[],
  canAddAdHoc: boolean,
): RecipientOption[] {
  const query = typed.trim().toLowerCase();
  const chosenIds = new Set(chosen.map((r) => r.id));
  const shown = options.filter((option) => {
    if (option.kind === 'user' && chosenIds.has(option.user.id)) return false;
    if (option.kind === 'group' && option.members.every((m) => chosenIds.has(m.id))) return false;
    return !query || option.label.toLowerCase().includes(query);
  });
  const email = canAddAdHoc ? adHocEmail(typed) : null;
  const listed = options.some((o) => o.kind === 'user' && o.user.email.toLowerCase() === email);
  const alreadyChosen = chosen.some((r) => r.email === email);
  if (email && !listed && !alreadyChosen) {
    shown.push({ kind: 'adhoc', group: pickerTexts.adHocGroup, label: `Add ${email}`, email });
  }
  return shown;
}
