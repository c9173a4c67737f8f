import { describe, expect, it } from 'vitest';
import { inboxMessages, sendMessages, type Contract, type SentPackage } from '@filerunner/protocol';
import type { Recipient } from '../share/share-form';
import {
  addRecipientsArgs,
  addRecipientsProblem,
  mobileUpdateProblem,
  recipientEditable,
  recipientsSummary,
} from './sent-recipients';

const contract = (pin: Contract['settings']['pin_verification']) =>
  ({ slug: 'demo', settings: { pin_verification: pin } }) as Contract;
const pkg = (change: Partial<SentPackage> = {}) =>
  ({ slug: 'reel', pin_verified: true, expired: false, recipients: [], ...change }) as SentPackage;
const member: Recipient = {
  id: 5,
  email: 'nina@example.com',
  name: 'Nina',
  verified: true,
  mobile: '',
};
const adHoc: Recipient = {
  id: -1,
  email: 'new@example.com',
  name: 'new@example.com',
  verified: false,
  mobile: '',
};

describe("a sent package's recipients", () => {
  it('checks a new mobile: required, then a valid number', () => {
    expect(mobileUpdateProblem('  ')).toBe(inboxMessages.mobileRequired);
    expect(mobileUpdateProblem('+44 12')).toBe(inboxMessages.invalidMobile);
    expect(mobileUpdateProblem('+447911123456')).toBeNull();
  });

  it('asks for mobiles by the PIN rule: all users in mode all, new users in mode adhoc', () => {
    expect(addRecipientsProblem([], pkg(), contract('none'))).toBe(sendMessages.selectRecipients);
    expect(addRecipientsProblem([member], pkg(), contract('all'))).toBe(
      inboxMessages.pinMobilesAll,
    );
    expect(addRecipientsProblem([member], pkg(), contract('adhoc'))).toBeNull();
    expect(addRecipientsProblem([member, adHoc], pkg(), contract('adhoc'))).toBe(
      sendMessages.pinMobiles,
    );
    // A package sent without a PIN in mode adhoc asks nobody.
    expect(
      addRecipientsProblem([adHoc], pkg({ pin_verified: false }), contract('adhoc')),
    ).toBeNull();
    expect(addRecipientsProblem([{ ...adHoc, mobile: '+44 12' }], pkg(), contract('adhoc'))).toBe(
      sendMessages.invalidMobile,
    );
  });

  it('sends users by id, new addresses by email, and mobiles only where a PIN applies', () => {
    const args = addRecipientsArgs(
      [
        { ...member, mobile: '+44 7911 123456' },
        { ...adHoc, mobile: '+12025550123' },
      ],
      pkg(),
      contract('adhoc'),
      'Hello',
    );
    expect(args).toEqual({
      params: { slug: 'reel' },
      body: {
        contract: 'demo',
        message: 'Hello',
        pin_verify: true,
        recipients: [
          { user: 5, mobile: null },
          { email: 'new@example.com', mobile: '+12025550123' },
        ],
      },
    });
  });

  it('closes changes for removed recipients and expired packages', () => {
    const r = { removed: false } as SentPackage['recipients'][number];
    expect(recipientEditable(pkg(), r)).toBe(true);
    expect(recipientEditable(pkg(), { ...r, removed: true })).toBe(false);
    expect(recipientEditable(pkg({ expired: true }), r)).toBe(false);
  });

  it('names the first recipient and how many more in the list row', () => {
    const r = (name: string) => ({ name }) as SentPackage['recipients'][number];
    expect(recipientsSummary([])).toBe('No recipients');
    expect(recipientsSummary([r('Rita')])).toBe('Rita');
    expect(recipientsSummary([r('Rita'), r('Ada'), r('Otto')])).toBe('Rita +2');
  });
});
