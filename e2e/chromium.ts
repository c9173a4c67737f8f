/** Debian's Chromium, which the browser suites and the upload bench drive with playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';

/** The flags it is launched with: no sandbox, GPU or QUIC, and none of its own background traffic. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
