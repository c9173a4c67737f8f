import {
  createRouteClient,
  sessionExpiryOf,
  type HttpClient,
  type RouteClient,
} from '@filerunner/protocol';
import { fetchHttpClient } from './fetch-http-client';

export { ApiError, type ApiErrorCode } from '@filerunner/protocol';
export { asApiError, firstErrorMessage } from './api-errors';

/** The app's calls: the protocol's route client over the page's fetch, with the session cookie. */
export type ApiClient = RouteClient;

export interface ApiClientOptions {
  /** Sent as `X-Client-Version` on every call; the server refuses mutating calls without it. */
  clientVersion: string;
  baseUrl?: string;
  /** The page's fetch unless a test gives another client. */
  http?: HttpClient;
  now?: () => number;
  /** Called with the session expiry (epoch ms, on this machine's clock) of every answer that has one. */
  onSessionExpires?: (expiresAtMs: number) => void;
}

/** The FileRunner API as the app calls it: the route client, feeding the session countdown. */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const { clientVersion, baseUrl = '/api', now = Date.now, onSessionExpires } = options;
  return createRouteClient({
    http: options.http ?? fetchHttpClient(),
    baseUrl,
    clientVersion,
    onAnswer: (answer) => {
      const expiresAt = answer && sessionExpiryOf(answer, now());
      if (onSessionExpires && expiresAt) onSessionExpires(expiresAt);
    },
  });
}
