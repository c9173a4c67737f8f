import {
  accessPeriodProblem,
  normalizeMobile,
  packageLimits,
  sendMessages,
  type Contract,
  type RouteArgs,
  api,
} from '@filerunner/protocol';
import { defaultAccessPeriod } from './access-period';

export type PinMode = Contract['settings']['pin_verification'];

/**
 * Someone the package goes to: a contract user the sender may reach (their id), or an address
 * typed on the spot (ad-hoc: a negative temporary id, never verified).
 */
export interface Recipient {
  id: number;
  email: string;
  name: string;
  /** Has an activated account in the contract; ad-hoc addresses never have. */
  verified: boolean;
  /** The mobile a PIN goes to, with its leading +; '' for none. */
  mobile: string;
}

/** What the sender fills in on the Share screen (the files are held beside it). */
export interface ShareForm {
  name: string;
  /** The PIN toggle as the sender set it; what applies depends on the contract's mode. */
  pinVerify: boolean;
  recipients: Recipient[];
  message: string;
  /** A storage location of the contract; null for its default storage. */
  storageGroup: number | null;
  validFrom: Date;
  validTo: Date;
}

/** The Share form as a new package starts: no one, nothing, and the default access period. */
export function emptyShareForm(now: Date, timeZone?: string): ShareForm {
  return {
    name: '',
    pinVerify: false,
    recipients: [],
    message: '',
    storageGroup: null,
    ...defaultAccessPeriod(now, timeZone),
  };
}

export type ShareField = 'contract' | 'recipients' | 'files' | 'name' | 'mobiles' | 'period';

export interface SendProblem {
  field: ShareField;
  message: string;
}

/** What the PIN toggle shows: off and disabled without PIN checks, on and fixed when all need one. */
export function pinToggle(mode: PinMode, chosen: boolean): { checked: boolean; disabled: boolean } {
  if (mode === 'none') return { checked: false, disabled: true };
  if (mode === 'all') return { checked: true, disabled: true };
  return { checked: chosen, disabled: false };
}

/** Whether recipients must prove a PIN: always in mode all, when the sender asks in mode adhoc. */
export function pinApplies(mode: PinMode, chosen: boolean): boolean {
  return pinToggle(mode, chosen).checked;
}

/** Whether this recipient needs a mobile: everybody in mode all, the unverified in mode adhoc. */
export function needsMobile(recipient: Recipient, mode: PinMode, chosen: boolean): boolean {
  if (!pinApplies(mode, chosen)) return false;
  return mode === 'all' || !recipient.verified;
}

/** The recipients to highlight: they need a PIN and have no mobile yet. */
export function missingMobiles(form: ShareForm, mode: PinMode): Recipient[] {
  return form.recipients.filter((r) => needsMobile(r, mode, form.pinVerify) && !r.mobile.trim());
}

/** A mobile typed in a recipient's mini input that is not a valid number. */
export function mobileProblem(mobile: string): string | null {
  if (!mobile.trim()) return null;
  return normalizeMobile(mobile) ? null : sendMessages.invalidMobile;
}

/**
 * Everything that stops the package from being sent, in the order the sender is told: contract,
 * recipients, files, name, then the PIN mobiles and the access period.
 */
export function sendProblems(
  form: ShareForm,
  contract: Contract | null,
  fileCount: number,
  now: Date,
): SendProblem[] {
  const problems: SendProblem[] = [];
  const add = (field: ShareField, message: string) => problems.push({ field, message });
  if (!contract) add('contract', sendMessages.selectContract);
  if (form.recipients.length === 0) add('recipients', sendMessages.selectRecipients);
  if (fileCount === 0) add('files', sendMessages.selectFiles);
  const name = form.name.trim();
  if (!name) add('name', sendMessages.nameRequired);
  else if (name.length > packageLimits.nameMax) add('name', sendMessages.nameTooLong);
  const mode = contract?.settings.pin_verification ?? 'none';
  if (missingMobiles(form, mode).length > 0) add('mobiles', sendMessages.pinMobiles);
  // Only the mobiles that are sent: those of recipients who need a PIN.
  const mobiles = form.recipients.filter((r) => needsMobile(r, mode, form.pinVerify));
  if (mobiles.some((r) => mobileProblem(r.mobile))) add('mobiles', sendMessages.invalidMobile);
  const period = accessPeriodProblem(form.validFrom, form.validTo, now);
  if (period) add('period', period.message);
  return problems;
}

/**
 * The Send Package button is disabled while sending, and while there are no files, no
 * recipients, no name, or recipients who need a mobile for their PIN. Other problems (an access
 * period in the past) are told when the sender presses it.
 */
export function sendDisabled(
  form: ShareForm,
  contract: Contract | null,
  fileCount: number,
  sending: boolean,
): boolean {
  return (
    sending ||
    fileCount === 0 ||
    form.recipients.length === 0 ||
    !form.name.trim() ||
    (contract !== null && missingMobiles(form, contract.settings.pin_verification).length > 0)
  );
}

export type CreatePackageBody = RouteArgs<typeof api.packages.create>['body'];

/** The files the server expects: from the upload plan, without the excluded files. */
export interface IntendedFiles {
  expected_files: number;
  expected_size: number;
  intended_files: { filename: string; size: number }[];
}

/**
 * The create call for the form. A mobile goes only with recipients who need a PIN; contract
 * users travel by id, ad-hoc recipients by address (their id is only the form's).
 */
export function createPackageBody(
  form: ShareForm,
  contract: Contract,
  files: IntendedFiles,
): CreatePackageBody {
  const mode = contract.settings.pin_verification;
  return {
    contract: contract.slug,
    name: form.name.trim(),
    message: form.message,
    pin_verify: pinApplies(mode, form.pinVerify),
    recipients: form.recipients.map((r) => {
      const mobile = needsMobile(r, mode, form.pinVerify) ? normalizeMobile(r.mobile) : null;
      return r.id > 0 ? { id: r.id, mobile } : { email: r.email, mobile };
    }),
    valid_from: form.validFrom.toISOString(),
    valid_to: form.validTo.toISOString(),
    ...files,
    storage_app_group: form.storageGroup,
  };
}
