import { describe, expect, it } from 'vitest';
import type { RecipientGroup, RecipientUser } from '@filerunner/protocol';
import {
  adHocEmail,
  filterRecipientOptions,
  recipientOptions,
  recipientsOf,
  withRecipients,
} from './recipients';

const person = (id: number, name: string, email: string, verified = true): RecipientUser => ({
  id,
  name,
  first_name: name.split(' ')[0]!,
  last_name: name.split(' ')[1] ?? '',
  email,
  mobile: id === 3 ? '+447911123456' : null,
  verified,
});
const ada = person(1, 'Ada Admin', 'admin@example.com');
const rita = person(3, 'Rita Recipient', 'Recipient@Example.com');
const groups: RecipientGroup[] = [
  { name: 'Design', master_group: false, verified_group: true, members: [ada] },
  { name: 'Partners', master_group: false, verified_group: true, members: [ada, rita] },
];
const options = recipientOptions(groups);
const labels = (list: ReturnType<typeof recipientOptions>) => list.map((o) => o.label);

describe('the recipients picker', () => {
  it('offers each group’s people, and the whole group when it has several', () => {
    expect(labels(options)).toEqual([
      'Ada Admin <admin@example.com>',
      'Everyone in Partners (2)',
      'Ada Admin <admin@example.com>',
      'Rita Recipient <Recipient@Example.com>',
    ]);
    expect(options.map((o) => o.group)).toEqual(['Design', 'Partners', 'Partners', 'Partners']);
  });

  it('adds a whole group as its people, with their mobiles, each person once', () => {
    const everyone = recipientsOf(options[1]!, groups, []);
    expect(everyone.map((r) => [r.id, r.email, r.mobile])).toEqual([
      [1, 'admin@example.com', ''],
      [3, 'recipient@example.com', '+447911123456'],
    ]);
    const again = withRecipients(everyone, recipientsOf(options[0]!, groups, everyone));
    expect(again).toHaveLength(2);
  });

  it('takes valid addresses only, trimmed and lower-cased', () => {
    expect(adHocEmail('  New.Person@Partner.TEST ')).toBe('new.person@partner.test');
    expect(adHocEmail('new.person@')).toBeNull();
    expect(adHocEmail('no at sign')).toBeNull();
    expect(adHocEmail('a@b')).toBeNull();
  });

  it('offers a typed address as a new user only when the contract allows ad-hoc recipients', () => {
    const typed = 'New@Partner.test';
    expect(labels(filterRecipientOptions(options, typed, [], true))).toEqual([
      'Add new@partner.test',
    ]);
    expect(filterRecipientOptions(options, typed, [], false)).toEqual([]);
    // Not while it is only part of an address.
    expect(filterRecipientOptions(options, 'new@', [], true)).toEqual([]);
  });

  it('gives ad-hoc recipients negative ids, unverified, and never twice', () => {
    const first = filterRecipientOptions(options, 'one@partner.test', [], true)[0]!;
    const added = recipientsOf(first, groups, []);
    expect(added).toEqual([
      { id: -1, email: 'one@partner.test', name: 'one@partner.test', verified: false, mobile: '' },
    ]);
    const second = filterRecipientOptions(options, 'two@partner.test', added, true)[0]!;
    expect(recipientsOf(second, groups, added)[0]!.id).toBe(-2);
    expect(filterRecipientOptions(options, 'ONE@partner.test', added, true)).toEqual([]);
  });

  it('turns a typed address of someone listed into that person, not a new user', () => {
    const typed = filterRecipientOptions(options, 'recipient@example.com', [], true);
    expect(labels(typed)).toEqual(['Rita Recipient <Recipient@Example.com>']);
    const adhoc = {
      kind: 'adhoc' as const,
      group: 'New user',
      label: '',
      email: 'admin@example.com',
    };
    expect(recipientsOf(adhoc, groups, [])[0]!.id).toBe(1);
  });

  it('hides people and groups already chosen', () => {
    const chosen = recipientsOf(options[1]!, groups, []);
    expect(filterRecipientOptions(options, '', chosen, true)).toEqual([]);
    expect(labels(filterRecipientOptions(options, 'rita', [], true))).toEqual([
      'Rita Recipient <Recipient@Example.com>',
    ]);
  });
});
