/** What the page asks the hashing worker. A Blob crosses by reference, never as a copy. */
export type HashRequest = { type: 'hash'; id: number; blob: Blob } | { type: 'cancel'; id: number };

/** What the worker answers per request: the digest, or why it could not read the file. */
export type HashReply =
  | { type: 'digest'; id: number; digest: string }
  | { type: 'failed'; id: number; name: string; message: string };
