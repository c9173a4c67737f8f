import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { API_KEY_SCHEME, CLIENT_VERSION_HEADER, messages } from '@filerunner/protocol';
import type { ApiKeyStore } from '../modules/apikeys';
import {
  SESSION_COOKIE,
  type CallerMembership,
  type SessionStore,
  type UserRow,
} from '../modules/accounts';
import { ApiError } from './errors';

/** Who is calling: a user by session cookie or by API key. */
export interface Principal {
  user: UserRow;
  /** The user's memberships as they stood when the request came in, read with the credential. */
  memberships: CallerMembership[];
  via: 'session' | 'api_key';
  /** Hash of the session token, when the caller came with a cookie. */
  sessionHash?: string;
  sessionExpiresAt?: Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Resolves the caller of every request in the scope it is installed on, enforces the
 * client-version header on mutating browser calls (with SameSite cookies, a cross-site form
 * cannot set a custom header, so this is the CSRF guard) and stamps the session expiry on
 * authenticated answers as the `Expires` header the web app's countdown reads.
 */
export function installAuth(
  app: FastifyInstance,
  deps: {
    sessions: SessionStore;
    apiKeys: ApiKeyStore;
    /** Counts the person active in every contract that added them and still lists them invited. */
    markMembershipsActive: (userId: number) => Promise<void>;
  },
): void {
  app.decorateRequest('principal', null);

  app.addHook('onRequest', async (request) => {
    const authorization = request.headers.authorization;
    if (authorization?.startsWith(`${API_KEY_SCHEME} `)) {
      const caller = await deps.apiKeys.userOfKey(
        authorization.slice(API_KEY_SCHEME.length + 1).trim(),
      );
      if (!caller) throw ApiError.detail(401, 'unauthenticated', messages.auth.invalidApiKey);
      request.principal = { ...caller, via: 'api_key' };
      return;
    }
    if (!SAFE_METHODS.has(request.method) && !request.headers[CLIENT_VERSION_HEADER]) {
      throw ApiError.detail(403, 'client_version_required', messages.auth.clientVersionRequired);
    }
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return;
    const session = await deps.sessions.find(token);
    if (session) {
      request.principal = {
        user: session.user,
        memberships: session.memberships,
        via: 'session',
        sessionHash: session.hash,
        sessionExpiresAt: session.expiresAt,
      };
    }
  });

  // A person already signed in when another contract adds them is active there from their next
  // call, not only from their next sign-in: their session may outlive the invitation by days.
  // Only the person's own use moves it, so the contract learns nothing an invitation would not.
  app.addHook('preHandler', async (request) => {
    const principal = request.principal;
    if (!principal?.memberships.some((m) => !m.active)) return;
    await deps.markMembershipsActive(principal.user.id);
    for (const m of principal.memberships) m.active = true;
  });

  app.addHook('onSend', async (request, reply: FastifyReply) => {
    reply.header('cache-control', 'no-store');
    const expiresAt = request.principal?.sessionExpiresAt;
    if (expiresAt) reply.header('expires', expiresAt.toUTCString());
  });
}

/** The caller, or a 401 when nobody is logged in. */
export function requireUser(request: FastifyRequest): Principal {
  if (!request.principal) throw ApiError.unauthenticated();
  return request.principal;
}
