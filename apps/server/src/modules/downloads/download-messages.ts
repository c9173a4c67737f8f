/** What a recipient is told when a download cannot start, in the words the package page shows. */
export const downloadMessages = {
  notFound: 'Sorry we cannot find that package',
  expired: 'This package has expired.',
  locked: 'This package is locked: verify the PIN sent to your mobile first.',
  removed:
    'The sender has removed your access to the package. You can no longer download or view the file information',
  fileChanged: (userPath: string) =>
    `"${userPath}" has changed in storage since the package was sent, so it cannot be downloaded. Please ask the sender to send it again.`,
} as const;
