import { describe, expect, it } from 'vitest';
import type { RecipientGroup } from '@filerunner/protocol';
import { parseAddresses, recipientsFor } from './recipients';

const member = (id: number, email: string) => ({
  id,
  email,
  name: `User ${id}`,
  first_name: 'User',
  last_name: String(id),
  mobile: null,
  verified: true,
});

const groups: RecipientGroup[] = [
  {
    name: 'Everyone',
    master_group: true,
    verified_group: false,
    members: [member(7, 'Editor@Acme.example')],
  },
  {
    name: 'Grading',
    master_group: false,
    verified_group: false,
    members: [member(7, 'Editor@Acme.example'), member(9, 'qc@acme.example')],
  },
];

describe('recipients of --to', () => {
  it('takes comma-separated and repeated options, trimmed, lowercased, without repeats', () => {
    expect(
      parseAddresses([' Editor@Acme.example, qc@acme.example', 'editor@acme.example,']),
    ).toEqual(['editor@acme.example', 'qc@acme.example']);
  });

  it('refuses what is not an address, naming it', () => {
    expect(() => parseAddresses(['a@acme.example,bob'])).toThrow('"bob" is not an email address');
  });

  it('sends users the sender may reach by id and anyone else as a new recipient', () => {
    expect(
      recipientsFor(['editor@acme.example', 'qc@acme.example', 'colourist@post.example'], groups),
    ).toEqual([{ id: 7 }, { id: 9 }, { email: 'colourist@post.example' }]);
  });
});
