import { z } from 'zod';

/** Where the signed-in web app opens its realtime socket (same origin, session cookie). */
export const REALTIME_PATH = '/api/ws';

/** The realtime socket's heartbeat and reconnect timing, on both ends. */
export const realtimeTiming = {
  /** Each end pings the other this often. */
  pingIntervalMs: 25_000,
  /** A socket that has answered nothing this long after a ping is dead. */
  pongTimeoutMs: 60_000,
  /** Reconnect delays grow as attempt² seconds, never above this. */
  reconnectCapSeconds: 30,
} as const;

/**
 * Realtime sockets one sign-in may hold on a server process at once. The app opens one per
 * tab, and a person rarely keeps more than a handful of tabs open; each socket holds memory and
 * a heartbeat on the server, so a client opening sockets in a loop is refused past this.
 */
export const MAX_SOCKETS_PER_SESSION = 20;

export const realtimeMessages = {
  tooManySockets: `This sign-in already has ${MAX_SOCKETS_PER_SESSION} live connections: close some tabs of FileRunner and reload this one.`,
} as const;

/** The close code of a socket whose session ended (logout, expiry): a new login is needed. */
export const SESSION_ENDED_CLOSE = 4001;

/** What the server sends on the realtime socket. */
export const realtimeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('user_connected'), email: z.string() }),
  /** A package was sent to the user: the project's received list and unseen count change. */
  z.object({
    type: z.literal('package_received'),
    package: z.object({ slug: z.string(), contract_slug: z.string() }),
  }),
  /** A download of a package the user sent started or finished, or earned a receipt. */
  z.object({ type: z.literal('package_downloaded'), package: z.object({ slug: z.string() }) }),
  /** Events may have been missed (the server lost its database listener): refetch. */
  z.object({ type: z.literal('resync') }),
  z.object({ type: z.literal('ping') }),
  z.object({ type: z.literal('pong') }),
]);
export type RealtimeMessage = z.infer<typeof realtimeMessage>;
