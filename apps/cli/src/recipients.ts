import { packageRecipientInput, type RecipientGroup } from '@filerunner/protocol';

/** A recipient as the create call takes it: a user the sender may reach, by id, or an address. */
export type PackageRecipient = { id: number } | { email: string };

/**
 * The addresses of `--to a@x,b@y` (the option may also be repeated), trimmed, lowercased as the
 * server stores them, without repeats. Throws with the first one that is not an address.
 */
export function parseAddresses(values: readonly string[]): string[] {
  const addresses: string[] = [];
  for (const value of values.flatMap((v) => v.split(','))) {
    if (value.trim() === '') continue;
    const parsed = packageRecipientInput.shape.email.safeParse(value);
    if (!parsed.success || !parsed.data)
      throw new Error(`"${value.trim()}" is not an email address`);
    if (!addresses.includes(parsed.data)) addresses.push(parsed.data);
  }
  return addresses;
}

/**
 * Each address as the Share screen would pick it: a user the recipients list offers goes by id
 * (allowed whatever the contract says of new recipients), any other address as an ad-hoc
 * recipient, which the server accepts only where the contract allows adding them.
 */
export function recipientsFor(
  addresses: readonly string[],
  groups: readonly RecipientGroup[],
): PackageRecipient[] {
  const known = new Map<string, number>();
  for (const member of groups.flatMap((g) => g.members)) {
    known.set(member.email.toLowerCase(), member.id);
  }
  return addresses.map((email) => {
    const id = known.get(email.toLowerCase());
    return id === undefined ? { email } : { id };
  });
}
