/// <reference types="vite/client" />

/** The app's version from its package.json, injected by Vite at build time. */
declare const __APP_VERSION__: string;
