import { describe, expect, it } from 'vitest';
import {
  emptyNewUser,
  externalRowProblems,
  externalUsersBody,
  groupProblems,
  newUserBody,
  newUserProblems,
} from './user-forms';

describe('the new-user form', () => {
  it('requires first name, last name and email', () => {
    expect(newUserProblems(emptyNewUser)).toEqual({
      first_name: 'This field is required.',
      last_name: 'This field is required.',
      email: 'This field is required.',
    });
    expect(
      newUserProblems({ ...emptyNewUser, first_name: 'A', last_name: 'B', email: 'nope' }),
    ).toEqual({ email: 'Enter a valid email address.' });
    expect(
      newUserProblems({ ...emptyNewUser, first_name: 'A', last_name: 'B', email: 'a@b.co' }),
    ).toEqual({});
  });

  it('sends the mobile with a leading +, and none when it is empty', () => {
    const form = { ...emptyNewUser, first_name: ' Nora ', last_name: 'New', email: 'N@X.test' };
    expect(newUserBody({ ...form, mobile: '447700900123' })).toMatchObject({
      first_name: 'Nora',
      email: 'n@x.test',
      mobile: '+447700900123',
    });
    expect(newUserBody(form)).not.toHaveProperty('mobile');
  });
});

describe('the external-users form', () => {
  it('needs a valid email on every row', () => {
    expect(
      externalRowProblems([
        { email: 'a@b.co', mobile: '' },
        { email: ' ', mobile: '+12015550123' },
        { email: 'nope', mobile: '' },
      ]),
    ).toEqual([undefined, 'This field is required.', 'Enter a valid email address.']);
  });

  it('lower-cases emails and adds the + to mobiles', () => {
    expect(
      externalUsersBody([
        { email: ' A@B.co ', mobile: '12015550123' },
        { email: 'c@d.co', mobile: '' },
      ]),
    ).toEqual([{ email: 'a@b.co', mobile: '+12015550123' }, { email: 'c@d.co' }]);
  });
});

describe('the group form', () => {
  it('requires a name', () => {
    expect(groupProblems({ name: '  ' })).toEqual({ name: 'Group name is required' });
    expect(groupProblems({ name: 'Design' })).toEqual({});
  });
});
