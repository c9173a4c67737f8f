/** The fields a person is shown by. */
export interface NamedPerson {
  firstName: string;
  lastName: string;
  email: string;
}

/** How a person is named in lists and mails: first and last name, or the address when both are empty. */
export function displayName(person: NamedPerson): string {
  return `${person.firstName} ${person.lastName}`.trim() || person.email;
}

/** A package's sender as mails name them; a deleted account leaves the package behind. */
export function senderName(sender: NamedPerson | null): string {
  return sender ? displayName(sender) : 'a former member';
}
