/** The success banners of the login page, by its `message` query value. */
export const loginBanners: Record<string, string> = {
  LOGIN_RESET: 'Your password has been reset. Please log in with your new password.',
  ACCOUNT_ACTIVATED: 'Your account has been activated. Please log in.',
  PASSWORD_UPDATED: 'Your password has been updated. Please log in with your new password.',
};
