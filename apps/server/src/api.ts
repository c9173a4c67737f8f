import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import multipart from '@fastify/multipart';
import type { AppContext } from './context';
import { accountsRoutes } from './modules/accounts/accounts.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { apiKeysRoutes } from './modules/apikeys/apikeys.routes';
import { brandingRoutes } from './modules/branding/branding.routes';
import { contractsRoutes } from './modules/contracts/contracts.routes';
import { contractGroupsRoutes } from './modules/contracts/groups.routes';
import { contractUsersRoutes } from './modules/contracts/users.routes';
import { downloadHistoryRoutesPlugin } from './modules/download-history/download-history.routes';
import { downloadsRoutes } from './modules/downloads/downloads.routes';
import { senderDownloadsRoutes } from './modules/downloads/sender-downloads';
import { filesystemRoutes } from './modules/filesystem/filesystem.routes';
import { helpRoutes } from './modules/help/help.routes';
import { mhlRoutesPlugin } from './modules/mhl/mhl.routes';
import { latencyRoutes } from './modules/latency/latency.routes';
import { receivingRoutes } from './modules/inbox/inbox.routes';
import { packagesRoutes } from './modules/packages/packages.routes';
import { pinRoutes } from './modules/pin/pin.routes';
import { preflightRoutesPlugin } from './modules/preflight/preflight.routes';
import { receiptRoutesPlugin } from './modules/receipts/receipts.routes';
import { installAuth } from './http/auth';
import { markMembershipsActive } from './modules/memberships/member-view';
import { installCompression } from './http/compression';
import { ApiError } from './http/errors';
import type { RegisteredRoute } from './http/routes';

/** An area's routes: an encapsulated plugin given the context, registered under `/api`. */
export type AreaPlugin = FastifyPluginAsync<{ ctx: AppContext }>;

/** Every area that answers under `/api`, in the order they register. */
export const apiAreas: readonly AreaPlugin[] = [
  accountsRoutes,
  apiKeysRoutes,
  contractsRoutes,
  filesystemRoutes,
  helpRoutes,
  latencyRoutes,
  contractUsersRoutes,
  contractGroupsRoutes,
  activityRoutes,
  packagesRoutes,
  brandingRoutes,
  downloadsRoutes,
  senderDownloadsRoutes,
  receivingRoutes,
  mhlRoutesPlugin,
  receiptRoutesPlugin,
  downloadHistoryRoutesPlugin,
  pinRoutes,
  preflightRoutesPlugin,
];

/**
 * The `/api` scope: multipart bodies, compressed JSON, the session or API-key check, then each
 * area in its own encapsulated plugin; an unknown path is the spec's "not found". Each route
 * registered is pushed to `routes` (the OpenAPI test compares them with the table).
 */
export async function apiPlugin(
  api: FastifyInstance,
  opts: { ctx: AppContext; routes: RegisteredRoute[] },
): Promise<void> {
  const { ctx, routes } = opts;
  api.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, path: route.url });
  });
  // Handlers check `file.truncated` and answer with the spec's field error instead of a bare 413.
  await api.register(multipart, { throwFileSizeLimit: false });
  installCompression(api);
  installAuth(api, {
    sessions: ctx.sessions,
    apiKeys: ctx.apiKeys,
    markMembershipsActive: (userId) => markMembershipsActive(ctx.db, userId),
  });
  for (const area of apiAreas) await api.register(area, { ctx });
  api.setNotFoundHandler(() => {
    throw ApiError.notFound();
  });
}
