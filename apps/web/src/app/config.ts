/** The app's version, shown in the sidebar and sent with every API call. */
export const appVersion = __APP_VERSION__;
