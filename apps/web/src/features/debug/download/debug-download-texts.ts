/** The download debug page's words: status lines and errors as the spec gives them. */
export const debugDownloadTexts = {
  title: 'Download',
  preparing: 'Preparing...',
  downloading: 'Downloading...',
  idle: 'Choose a package or enter URLs to download.',
  replaying: (n: number, total: number) => `Replaying events... ${n} / ${total}`,
  completed: 'Completed',
  aborted: 'Aborted',
  urlsRequired: 'URLs required',
  // The page's content policy lets it fetch only from this server and its storage hosts.
  urlsHelp:
    'One URL a line (on this server or its storage); blank lines are ignored. Each is saved as one file.',
  errorDownloading: 'Error downloading',
  changeDirectoryFailed: 'Failed to change directory',
  permissionDenied: 'User denied permission to access the file system',
  noDirectory: 'No directory selected',
  replayFailed: 'The event log could not be replayed',
  logNotStored: 'Some events could not be kept in this browser, so the saved log is incomplete',
} as const;

/** The packages the history shows a page at a time. */
export const HISTORY_PAGE_SIZE = 5;
