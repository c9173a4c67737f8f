/**
 * What the page asks the hashing worker: files to hash, many in one message (a folder of small
 * files would otherwise cost a message each); a slab to read into memory, hashing the parts
 * named by `hashed`; or to stop one. A Blob crosses by reference, never as a copy.
 */
export type HashRequest =
  | { type: 'hash'; files: { id: number; blob: Blob }[] }
  | { type: 'pack'; id: number; parts: (Uint8Array<ArrayBuffer> | Blob)[]; hashed: number[] }
  | { type: 'cancel'; id: number };

/**
 * What the worker answers per request: the digest, the packed slab with its digests, or why it
 * could not read a file.
 */
export type HashReply =
  | { type: 'digest'; id: number; digest: string }
  | { type: 'packed'; id: number; body: Blob; digests: string[] }
  | { type: 'failed'; id: number; name: string; message: string };

/** The worker posts every reply ready at that moment in one message. */
export type HashReplies = HashReply[];
