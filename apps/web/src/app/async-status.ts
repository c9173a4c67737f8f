/** The life of a request in the store (spec: idle, pending, fulfilled, rejected). */
export type AsyncStatus = 'idle' | 'pending' | 'fulfilled' | 'rejected';
