/** The app's version, shown in the sidebar and sent with every API call. */
export const appVersion = __APP_VERSION__;

/**
 * Where 'Need Help?', the sidebar help link and 'Launch Help Center' lead. The spec names no help
 * centre address, so a deployment sets VITE_HELP_CENTER_URL at build time; without it the links
 * open the support diagnostics page, the one help the app itself carries.
 */
export const helpCenterUrl = import.meta.env.VITE_HELP_CENTER_URL || '/debug';
