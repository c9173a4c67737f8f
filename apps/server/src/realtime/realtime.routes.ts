import type { FastifyInstance, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { MAX_SOCKETS_PER_SESSION, REALTIME_PATH, realtimeMessages } from '@filerunner/protocol';
import { SESSION_COOKIE, type SessionStore } from '../modules/accounts/sessions';
import { ApiError } from '../http/errors';
import type { RealtimeHub, SocketSession } from './hub';

/** The browser's messages are tiny (app-level pings); anything large is not ours. */
const MAX_MESSAGE_BYTES = 4096;

/**
 * The realtime socket at `/api/ws`. It is opened with the session cookie only (a browser cannot
 * set headers on a socket) and only from the app's own origin: browsers send cookies on
 * cross-site socket requests, so without the Origin check any site could listen in as the user.
 * It is outside the `/api` route table on purpose: it is not a JSON call.
 */
export async function realtimeRoutes(
  app: FastifyInstance,
  opts: { hub: RealtimeHub; sessions: SessionStore; publicUrl: string },
): Promise<void> {
  const allowedOrigin = new URL(opts.publicUrl).origin;
  const sessionOf = new WeakMap<FastifyRequest, SocketSession>();

  await app.register(websocket, { options: { maxPayload: MAX_MESSAGE_BYTES } });

  app.get(
    REALTIME_PATH,
    {
      websocket: true,
      // Refused here, before the upgrade, the browser gets a plain HTTP answer.
      preValidation: async (request) => {
        if (request.headers.origin !== allowedOrigin) {
          throw ApiError.forbidden();
        }
        const token = request.cookies[SESSION_COOKIE];
        const session = token ? await opts.sessions.find(token) : null;
        if (!token || !session) throw ApiError.unauthenticated();
        if (opts.hub.socketsOfSession(session.hash) >= MAX_SOCKETS_PER_SESSION) {
          throw ApiError.detail(429, 'rate_limited', realtimeMessages.tooManySockets);
        }
        sessionOf.set(request, {
          userId: session.user.id,
          email: session.user.email,
          token,
          hash: session.hash,
          expiresAt: session.expiresAt,
        });
      },
    },
    (socket, request) => {
      const session = sessionOf.get(request);
      if (!session) {
        socket.close(1011);
        return;
      }
      // Sockets of one session opened together all pass the check before any is added.
      if (opts.hub.socketsOfSession(session.hash) >= MAX_SOCKETS_PER_SESSION) {
        socket.close(1008, 'too many connections for this sign-in');
        return;
      }
      opts.hub.add(socket, session);
    },
  );
}
