// Apart from the Inbox's schemas (inbox.ts): the screens show these without loading zod.

/** Strings of the Inbox, Sent and external package screens and of their calls. */
export const inboxMessages = {
  notFound: 'Sorry we cannot find that package',
  notAvailable: 'Sorry! That package is not available',
  removed:
    'The sender has removed your access to the package. You can no longer download or view the file information',
  expired: 'This package has expired.',
  locked: 'This package is locked: verify the PIN sent to your mobile first.',
  extendNotAllowed: 'This contract does not allow extending the expiry of packages.',
  extendNotExpiring: 'Only a package that is expiring can have its expiry extended.',
  extendAtLimit: 'This package cannot be kept any longer: it is stored for at most 15 days.',
  addFailed:
    "Sorry, we weren't able to add the recipients to your package. Try again, and if the problem persists contact our support team.",
  added:
    'Recipients were added to your package. Note: The original package expiry time will apply to all recipients.',
  removedRecipients: 'Recipients were removed from your package.',
  alreadyRecipient: 'That user is already a recipient of this package.',
  pinMobilesAll: 'Please add a mobile phone number for all users for PIN verification',
  mobileRequired: 'Please enter a mobile number',
  invalidMobile: 'Invalid phone number',
  mobileInvalid: 'Mobile number is invalid',
  mobileUpdated: "The recipient's phone number for this package has been updated.",
  mobileUpdateFailed:
    'There was an issue updating the phone number. Please contact support if the problem persists.',
  recipientNotFound: 'That recipient is not on this package.',
  recipientRemoved: 'That recipient has been removed from the package.',
  packageExpired: 'This package has expired.',
} as const;
