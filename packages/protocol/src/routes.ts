import type { ApiRoute } from './api/route';
import { groupRoutes } from './groups';

/**
 * The route table: every call of the API by area. The server registers each one from here, the
 * web app derives its endpoints from here, and the OpenAPI document is generated from here.
 */
export const api = {
  groups: groupRoutes,
};

/** Every call of the table, for the OpenAPI document and the tests that walk the API. */
export const allRoutes: readonly ApiRoute[] = Object.values(api).flatMap((area) =>
  Object.values(area),
);
