/** The support and diagnostics pages listed on /debug. */
export const debugTools = [
  {
    path: '/debug/latency',
    title: 'Latency',
    description: 'Measure the response time from this browser to each server region.',
    needsLogin: false,
  },
  {
    path: '/debug/fs-access-check',
    title: 'File-system access check',
    description: 'Pick a folder and test which file names this computer can write.',
    needsLogin: false,
  },
  {
    path: '/debug/download',
    title: 'Download',
    description: 'Download a package with detailed progress, rates and an event log.',
    needsLogin: true,
  },
  {
    path: '/debug/preflight',
    title: 'Pre-flight check',
    description:
      'Before a big transfer: server latency, file names a recipient could not unpack, and a small upload and download round trip, in one report for support.',
    needsLogin: true,
  },
] as const;
