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

export function passwordChangedMail(to: Recipient, loginLink: string): OutboxMail {
  return {
    to: to.email,
    subject: 'Your FileRunner password was changed',
    text: [
      loginLink,
      '',
      greeting(to),
      '',
      'The password of your FileRunner account was just changed and every session was signed out.',
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
