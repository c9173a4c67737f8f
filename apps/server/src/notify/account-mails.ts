import type { OutboxMail } from '../db/schema';

interface Recipient {
  email: string;
  firstName: string;
}

const greeting = (to: Recipient) => (to.firstName ? `Hello ${to.firstName},` : 'Hello,');

/** The mail that invites a new user to set a password; `link` is the /activate/{uid}/{token} page. */
export function activationMail(
  to: Recipient,
  link: string,
  contractName: string,
  hours: number,
): OutboxMail {
  return {
    to: to.email,
    subject: `You have been invited to FileRunner (${contractName})`,
    text: [
      link,
      '',
      greeting(to),
      '',
      `You have been added to ${contractName} on FileRunner, where you can send and receive packages of files securely.`,
      `Open the link above to activate your account. It works once and expires in ${hours} hours.`,
    ].join('\n'),
  };
}

export function resetMail(to: Recipient, link: string, hours: number): OutboxMail {
  return {
    to: to.email,
    subject: 'Reset your FileRunner password',
    text: [
      link,
      '',
      greeting(to),
      '',
      'Someone asked to reset the password of your FileRunner account. Open the link above to choose a new one.',
      `It works once and expires in ${hours} hours. If you did not ask for this, you can ignore this mail.`,
    ].join('\n'),
  };
}

/** Sent on a password change or reset; `revokedKeys` is how many live API keys it revoked. */
export function passwordChangedMail(to: Recipient, loginLink: string, revokedKeys = 0): OutboxMail {
  const keys =
    revokedKeys === 1
      ? ['Your API key was revoked too; create a new one in your profile if you still need it.']
      : revokedKeys > 1
        ? [
            `Your ${revokedKeys} API keys were revoked too; create new ones in your profile if you still need them.`,
          ]
        : [];
  return {
    to: to.email,
    subject: 'Your FileRunner password was changed',
    text: [
      loginLink,
      '',
      greeting(to),
      '',
      'The password of your FileRunner account was just changed and every session was signed out.',
      ...keys,
      'If this was not you, reset your password at once from the login page above and contact support.',
    ].join('\n'),
  };
}

/** Tells an existing, active account that it now belongs to another contract. */
export function addedToContractMail(
  to: Recipient,
  contractName: string,
  loginLink: string,
): OutboxMail {
  return {
    to: to.email,
    subject: `You have been added to ${contractName} on FileRunner`,
    text: [
      loginLink,
      '',
      greeting(to),
      '',
      `You now have access to ${contractName} on FileRunner. Log in with your existing password to see it.`,
    ].join('\n'),
  };
}

/**
 * Tells a person without an activated account that a contract added them as an external
 * partner: packages from it will reach them by mail, with no password needed.
 */
export function addedAsPartnerMail(to: Recipient, contractName: string): OutboxMail {
  return {
    to: to.email,
    subject: `You have been added to ${contractName} on FileRunner`,
    text: [
      greeting(to),
      '',
      `${contractName} added your address on FileRunner, where packages of files are sent securely.`,
      'Packages they send you will reach you by email; you do not need an account to receive them.',
    ].join('\n'),
  };
}
