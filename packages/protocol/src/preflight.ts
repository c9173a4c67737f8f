import { z } from 'zod';
import { defineRoute } from './api/route';

/**
 * The pre-flight check's round trip: a small object the browser stores with a signed upload URL,
 * reads back by range through the API (`readProbe`), and then has the server remove. It lives in
 * the user's own storage under a name bound to them, so one person can never reach another's
 * probe. Its bytes are the caller's choice, so no link reads them straight from storage.
 */
export const preflightLimits = {
  /** The probe's exact size: big enough to cross more than one network packet, small to store. */
  probeBytes: 256 * 1024,
  /** The range read back: from this offset, this many bytes (so a Range header really works). */
  rangeOffset: 100_000,
  rangeLength: 4096,
  /** The signed upload URL stops working after this long; the probe is swept after it. */
  grantSeconds: 300,
  /**
   * Probes one person may have stored at once: two checks started together (two tabs) both
   * succeed, and a burst of probes made before storing any cannot fill the volume.
   */
  probesPerUser: 2,
} as const;

export const preflightProbe = z.object({
  /** 32 hex digits: the probe's name under the caller's storage prefix. */
  id: z.string(),
  size: z.number(),
  /** TempURL PUT: store exactly `size` bytes. */
  upload_url: z.url(),
  /** Unix seconds after which the upload URL is refused. */
  expires: z.number(),
});
export type PreflightProbe = z.infer<typeof preflightProbe>;

export const preflightRemoved = z.object({ removed: z.boolean() });

const probeParams = z.object({
  id: z.string().regex(/^[0-9a-f]{32}$/, 'Not a probe of the pre-flight check'),
});

export const preflightRoutes = {
  createProbe: defineRoute({
    method: 'POST',
    path: '/preflight/probes/',
    summary: "Signed URLs to store and read back a small probe in the caller's storage",
    auth: 'user',
    status: 201,
    response: preflightProbe,
  }),
  readProbe: defineRoute({
    method: 'GET',
    path: '/preflight/probes/:id/',
    summary:
      "The caller's probe, whole or one range, as a sandboxed attachment (never a storage link)",
    auth: 'user',
    params: probeParams,
    status: 200,
    response: 'binary',
  }),
  removeProbe: defineRoute({
    method: 'POST',
    path: '/preflight/probes/:id/remove/',
    summary: "Removes the caller's probe from storage (removing it again changes nothing)",
    auth: 'user',
    params: probeParams,
    status: 200,
    response: preflightRemoved,
    idempotent: true,
  }),
};
