import { z } from 'zod';
import { defineRoute } from './api/route';

/** One host the latency page times: its name on the page and the base URL of its /healthcheck. */
export const latencyHost = z.object({ name: z.string(), url: z.url() });
export type LatencyHost = z.infer<typeof latencyHost>;

/** A region (LON, LAX, AUS) or an inter-region link, and the hosts that answer for it. */
export const latencyGroup = z.object({ name: z.string(), hosts: z.array(latencyHost) });
export type LatencyGroup = z.infer<typeof latencyGroup>;

/** The hosts the latency page times, by group, as the server's LATENCY_HOSTS setting lists them. */
export const latencyHosts = z.object({ groups: z.array(latencyGroup) });
export type LatencyHosts = z.infer<typeof latencyHosts>;

/** How the latency page times each host. */
export const latencyLimits = {
  /** GETs of a host's /healthcheck; the first answer is its latency. */
  attemptsPerHost: 5,
  /** A GET is abandoned after this long. */
  timeoutMs: 60_000,
  /** The axis reaches at least this far, else 1.2 times the highest latency. */
  axisMinimumMs: 200,
  axisHeadroom: 1.2,
  /** Under this a latency is good (green), under `slowMs` fair (amber), else poor (red). */
  fastMs: 100,
  slowMs: 400,
  /** How long "Copied" stays after a host's URL is copied. */
  copiedMs: 2000,
} as const;

/** The address a host's latency is timed on: `<host>/healthcheck`. */
export function healthcheckUrl(host: LatencyHost): string {
  return `${host.url.replace(/\/+$/, '')}/healthcheck`;
}

export const latencyRoutes = {
  hosts: defineRoute({
    method: 'GET',
    path: '/latency/hosts/',
    // Public: support staff open the latency page with a person who may not be able to sign in.
    summary: 'The hosts the latency page times, grouped by region and inter-region link',
    auth: 'public',
    status: 200,
    response: latencyHosts,
  }),
};
