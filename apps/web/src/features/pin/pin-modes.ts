import type { Contract } from '@filerunner/protocol';

/** A project's PIN verification setting. */
export type PinMode = Contract['settings']['pin_verification'];

/**
 * What each PIN verification mode means, said once so that the admin who sets it (Settings), the
 * sender who meets it (the Share screen's toggle) and the help page all read the same rule: off
 * means no package asks for a PIN and the sender cannot turn it on; all means every recipient
 * always does; adhoc leaves it to the sender, and then only recipients without an activated
 * account prove one.
 */
export const pinModeMeanings: Record<PinMode, string> = {
  none: 'PIN verification is off in this project: no package asks for a PIN, and senders cannot turn it on.',
  all: 'Every recipient of every package must enter a PIN sent by text message to their mobile before downloading.',
  adhoc:
    'Senders choose for each package whether recipients without an activated account must enter a PIN sent by text message to their mobile before downloading.',
};
