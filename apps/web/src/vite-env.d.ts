/// <reference types="vite/client" />

/** The app's version from its package.json, injected by Vite at build time. */
declare const __APP_VERSION__: string;

interface ImportMetaEnv {
  /** Where the help links and 'Launch Help Center' point; see src/app/config.ts. */
  readonly VITE_HELP_CENTER_URL?: string;
}
