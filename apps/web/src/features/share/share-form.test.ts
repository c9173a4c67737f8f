import { describe, expect, it } from 'vitest';
import { sendMessages, type Contract } from '@filerunner/protocol';
import { testContract } from '../../app/test-support/contracts';
import {
  createPackageBody,
  emptyShareForm,
  missingMobiles,
  pinToggle,
  sendDisabled,
  sendProblems,
  type PinMode,
  type Recipient,
  type ShareForm,
} from './share-form';

const now = new Date('2026-03-01T12:10:00Z');

function contractWith(pin: PinMode = 'none'): Contract {
  return testContract({ settings: { number_of_upload_workers: 10, pin_verification: pin } });
}

const rita: Recipient = {
  id: 3,
  email: 'recipient@example.com',
  name: 'Rita Recipient',
  verified: true,
  mobile: '',
};
const newcomer: Recipient = {
  id: -1,
  email: 'new@partner.test',
  name: 'new@partner.test',
  verified: false,
  mobile: '',
};

const blank: ShareForm = emptyShareForm(now);

const messagesOf = (form: ShareForm, contract: Contract | null, files: number) =>
  sendProblems(form, contract, files, now).map((p) => p.message);

describe('the Share form’s problems', () => {
  it('come in the order contract, recipients, files, name', () => {
    expect(messagesOf(blank, null, 0)).toEqual([
      sendMessages.selectContract,
      sendMessages.selectRecipients,
      sendMessages.selectFiles,
      sendMessages.nameRequired,
    ]);
    const contract = contractWith();
    expect(messagesOf(blank, contract, 0)[0]).toBe(sendMessages.selectRecipients);
    const withRecipient = { ...blank, recipients: [rita] };
    expect(messagesOf(withRecipient, contract, 0)[0]).toBe(sendMessages.selectFiles);
    expect(messagesOf(withRecipient, contract, 3)).toEqual([sendMessages.nameRequired]);
    expect(messagesOf({ ...withRecipient, name: '  Dailies ' }, contract, 3)).toEqual([]);
  });

  it('refuse a name of more than 255 characters and a blank one', () => {
    const form = { ...blank, recipients: [rita] };
    expect(messagesOf({ ...form, name: 'x'.repeat(256) }, contractWith(), 1)).toEqual([
      sendMessages.nameTooLong,
    ]);
    expect(messagesOf({ ...form, name: 'x'.repeat(255) }, contractWith(), 1)).toEqual([]);
    expect(messagesOf({ ...form, name: '   ' }, contractWith(), 1)).toEqual([
      sendMessages.nameRequired,
    ]);
  });

  it('ask for mobiles after the name: everyone in mode all, the unverified in mode adhoc', () => {
    const form = { ...blank, name: 'Dailies', recipients: [rita, newcomer] };
    expect(messagesOf(form, contractWith('none'), 1)).toEqual([]);
    expect(missingMobiles(form, 'all')).toEqual([rita, newcomer]);
    expect(messagesOf(form, contractWith('all'), 1)).toEqual([sendMessages.pinMobiles]);
    // In mode adhoc the toggle decides, and only the unverified newcomer needs a mobile.
    expect(messagesOf(form, contractWith('adhoc'), 1)).toEqual([]);
    const asked = { ...form, pinVerify: true };
    expect(missingMobiles(asked, 'adhoc')).toEqual([newcomer]);
    const given = { ...asked, recipients: [rita, { ...newcomer, mobile: '+447911123456' }] };
    expect(messagesOf(given, contractWith('adhoc'), 1)).toEqual([]);
  });

  it('tell an invalid mobile apart from a missing one', () => {
    const form = { ...blank, name: 'Dailies', recipients: [{ ...rita, mobile: '+1 555' }] };
    expect(messagesOf(form, contractWith('all'), 1)).toEqual([sendMessages.invalidMobile]);
  });

  it('check the access period last', () => {
    const form = { ...blank, name: 'Dailies', recipients: [rita] };
    const backwards = { ...form, validTo: new Date(form.validFrom.getTime() - 60_000) };
    expect(messagesOf(backwards, contractWith(), 1)).toEqual([sendMessages.periodEndBeforeStart]);
    const tooLong = { ...form, validTo: new Date(form.validFrom.getTime() + 16 * 86_400_000) };
    expect(messagesOf(tooLong, contractWith(), 1)).toEqual([sendMessages.periodTooLong]);
    const stale = { ...form, validFrom: new Date(now.getTime() - 2 * 3_600_000) };
    expect(messagesOf(stale, contractWith(), 1)).toEqual([sendMessages.periodStartInPast]);
    const weeksAhead = {
      ...form,
      validFrom: new Date(now.getTime() + 23 * 86_400_000),
      validTo: new Date(now.getTime() + 25 * 86_400_000),
    };
    expect(messagesOf(weeksAhead, contractWith(), 1)).toEqual([sendMessages.periodPastStorage]);
  });
});

describe('the Send Package button', () => {
  const ready = { ...blank, name: 'Dailies', recipients: [rita] };

  it('is enabled once there are files, recipients and a name', () => {
    expect(sendDisabled(ready, contractWith(), 1, false)).toBe(false);
  });

  it('is disabled while sending, and without files, recipients or a name', () => {
    expect(sendDisabled(ready, contractWith(), 1, true)).toBe(true);
    expect(sendDisabled(ready, contractWith(), 0, false)).toBe(true);
    expect(sendDisabled({ ...ready, recipients: [] }, contractWith(), 1, false)).toBe(true);
    expect(sendDisabled({ ...ready, name: ' ' }, contractWith(), 1, false)).toBe(true);
  });

  it('is disabled while a recipient who needs a PIN has no mobile', () => {
    expect(sendDisabled(ready, contractWith('all'), 1, false)).toBe(true);
    const withMobile = { ...ready, recipients: [{ ...rita, mobile: '+447911123456' }] };
    expect(sendDisabled(withMobile, contractWith('all'), 1, false)).toBe(false);
  });

  it('stays enabled for problems told on pressing it (an access period gone stale)', () => {
    const stale = { ...ready, validFrom: new Date(now.getTime() - 2 * 3_600_000) };
    expect(sendDisabled(stale, contractWith(), 1, false)).toBe(false);
    expect(messagesOf(stale, contractWith(), 1)).toHaveLength(1);
  });
});

describe('the PIN toggle', () => {
  it('is off and disabled in mode none, on and fixed in mode all, free in mode adhoc', () => {
    expect(pinToggle('none', true)).toEqual({ checked: false, disabled: true });
    expect(pinToggle('all', false)).toEqual({ checked: true, disabled: true });
    expect(pinToggle('adhoc', false)).toEqual({ checked: false, disabled: false });
    expect(pinToggle('adhoc', true)).toEqual({ checked: true, disabled: false });
  });
});

describe('the create call', () => {
  it('sends users by id, ad-hoc recipients by address, and mobiles only where a PIN is needed', () => {
    const form: ShareForm = {
      ...blank,
      name: ' Dailies ',
      message: 'Day 1',
      pinVerify: true,
      storageGroup: 7,
      recipients: [
        { ...rita, mobile: '+447911123456' },
        { ...newcomer, mobile: '+44 7911 123457' },
      ],
    };
    const files = {
      expected_files: 1,
      expected_size: 5,
      intended_files: [{ filename: 'a/b.txt', size: 5 }],
    };
    expect(createPackageBody(form, contractWith('adhoc'), files)).toEqual({
      contract: 'demo',
      name: 'Dailies',
      message: 'Day 1',
      pin_verify: true,
      recipients: [
        { id: 3, mobile: null },
        { email: 'new@partner.test', mobile: '+447911123457' },
      ],
      valid_from: form.validFrom.toISOString(),
      valid_to: form.validTo.toISOString(),
      ...files,
      storage_app_group: 7,
    });
    expect(createPackageBody(form, contractWith('none'), files).pin_verify).toBe(false);
  });
});
