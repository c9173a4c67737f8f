import type { ApiRoute } from './api/route';
import { accountRoutes } from './accounts';
import { activityRoutes } from './activity';
import { apiKeyRoutes } from './apikeys';
import { brandingRoutes } from './branding';
import { contractRoutes } from './contracts';
import { downloadHistoryRoutes } from './download-history';
import { downloadRoutes } from './downloads';
import { filesystemRoutes } from './filesystem';
import { groupRoutes } from './groups';
import { helpRoutes } from './help';
import { inboxRoutes } from './inbox';
import { mhlRoutes } from './mhl';
import { latencyRoutes } from './latency';
import { packageRoutes } from './packages';
import { pinRoutes } from './pin';
import { preflightRoutes } from './preflight';
import { receiptRoutes } from './receipts';
import { recipientRoutes } from './recipients';
import { userRoutes } from './users';

/**
 * The route table: every call of the API by area. The server registers each one from here, the
 * web app derives its endpoints from here, and the OpenAPI document is generated from here.
 */
export const api = {
  accounts: accountRoutes,
  activity: activityRoutes,
  apiKeys: apiKeyRoutes,
  branding: brandingRoutes,
  contracts: contractRoutes,
  downloads: downloadRoutes,
  downloadHistory: downloadHistoryRoutes,
  filesystem: filesystemRoutes,
  groups: groupRoutes,
  help: helpRoutes,
  inbox: inboxRoutes,
  mhl: mhlRoutes,
  latency: latencyRoutes,
  packages: packageRoutes,
  pin: pinRoutes,
  preflight: preflightRoutes,
  receipts: receiptRoutes,
  recipients: recipientRoutes,
  users: userRoutes,
};

/** Every call of the table, for the OpenAPI document and the tests that walk the API. */
export const allRoutes: readonly ApiRoute[] = Object.values(api).flatMap((area) =>
  Object.values(area),
);
