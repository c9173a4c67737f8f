import { limits } from './limits';

/** User-facing error and validation messages of the accounts screens and calls. */
export const messages = {
  login: {
    failed:
      'Sorry we could not log you in, please check you are using the correct email and password.',
    tooManyAttempts: 'Too many attempts. Please wait a few minutes and try again.',
  },
  forgotPassword: { failed: 'Sorry we could not reset your password.', emailSent: 'Email Sent' },
  reset: {
    invalidToken: 'Sorry that token in invalid. Please try again.',
    invalidUrl: 'Invalid URL',
  },
  activation: {
    invalidToken: 'Sorry that token is invalid.',
    failed: 'Sorry we could not activate your account.',
    nameRequired: 'Name is required',
    passwordRequired: 'Password is required',
    confirmationRequired: 'Password Confirmation is required',
  },
  password: {
    required: 'This field is required.',
    mismatch: 'Passwords do not match',
    failed: 'Unable to update password',
    updated: 'Password updated successfully',
    currentWrong: 'Your current password is not correct.',
    tooWeak: 'The password does not meet the requirements: ',
  },
  profile: {
    firstNameRequired: 'First Name is required',
    lastNameRequired: 'Last Name is required',
    failed: 'Sorry, An error occurred while updating your profile',
    updated: 'Profile updated successfully',
    avatarTooLarge: 'File size cannot exceed more than',
    avatarType: 'The avatar must be a PNG or JPEG image.',
    avatarUnreadable: `The avatar could not be read as an image, or it has more than ${limits.imageMaxPixels / 1_000_000} million pixels.`,
    invalidMobile: 'Invalid phone number',
    settingsFailed: "Sorry, we couldn't save your settings. Please try again later.",
  },
  apiKeys: {
    failed: 'Something went wrong. Please try again',
    nameRequired: 'This field is required.',
    sessionRequired: 'API keys can only be created from a signed-in session, not with an API key.',
    tooMany: `You already have ${limits.apiKeysLiveMax} valid API keys: revoke one you no longer use to create another.`,
  },
  auth: {
    required: 'Authentication credentials were not provided.',
    invalidApiKey: 'Invalid API key.',
    clientVersionRequired: 'The X-Client-Version header is required.',
    forbidden: 'You do not have permission to perform this action.',
    notFound: 'Not found.',
    rateLimited: 'Request was throttled. Please wait a few minutes and try again.',
  },
  /** Any text field of any call. */
  text: {
    nulCharacter: 'This field cannot contain a NUL character.',
    brokenUnicode: 'This field contains a character that is not valid Unicode text.',
  },
  constraints: {
    unavailable: 'Filesystem constraints not available',
    failed: 'Failed to fetch constraints',
  },
  /** Answered with 507 while the server's storage volume is under its free-space floor. */
  storage: { full: 'Storage is full: new files cannot be stored until space is freed.' },
} as const;
