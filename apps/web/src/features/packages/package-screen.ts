import { inboxMessages } from '@filerunner/protocol';

/** The words and numbers of the Inbox and Sent screens, in one place. */
export const packageScreen = {
  placeholderRows: 6,
  receivedEmpty: "You haven't received any packages yet...",
  sentEmpty: "You haven't sent any packages yet...",
  emptyDetail: "This is where you'll find your package information",
  removedAccess: inboxMessages.removed,
  listFailed: 'Sorry, we could not load your packages. Please try again later.',
  notFound: inboxMessages.notFound,
  notAvailableTitle: inboxMessages.notAvailable,
  notAvailable: 'We could not load that package',
  extendFailed: 'Sorry, we could not extend the expiry of this package.',
  extended: 'The expiry of this package has been extended.',
  downloadFailed: 'Sorry, we could not start that download. Please try again.',
} as const;

/** The toasts and messages of a sent package's recipients. */
export const recipientMessages = {
  addFailed: inboxMessages.addFailed,
  added: inboxMessages.added,
  /** The add-recipients toast hides sooner than the others. */
  addedToastMs: 3000,
  removed: inboxMessages.removedRecipients,
  removeFailed: 'Sorry, we could not remove that recipient. Please try again.',
  mobileRequired: inboxMessages.mobileRequired,
  mobileInvalid: inboxMessages.invalidMobile,
  mobileRefused: inboxMessages.mobileInvalid,
  mobileUpdated: inboxMessages.mobileUpdated,
  mobileUpdateFailed: inboxMessages.mobileUpdateFailed,
  pinMobilesAll: inboxMessages.pinMobilesAll,
} as const;
