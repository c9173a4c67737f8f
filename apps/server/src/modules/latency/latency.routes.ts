import type { FastifyInstance } from 'fastify';
import { latencyRoutes as routes, type LatencyGroup } from '@filerunner/protocol';
import type { Config } from '../../config';
import type { AppContext } from '../../context';
import type { StorageDriver } from '../../storage';
import { serve } from '../../http/routes';

/**
 * The hosts the latency page times: those of LATENCY_HOSTS, else this server itself and its
 * storage endpoint (and the storage's alternative hosts), whose `/healthcheck` is at the root of
 * their origin (Swift's healthcheck middleware answers there, the embedded store is this server).
 */
export function latencyGroups(
  config: Config,
  storage: Pick<StorageDriver, 'accountUrl' | 'alternativeAccountUrls'>,
): readonly LatencyGroup[] {
  if (config.latencyGroups) return config.latencyGroups;
  const storageHosts = [storage.accountUrl, ...storage.alternativeAccountUrls].map((url, i) => ({
    name: i === 0 ? 'Storage' : `Storage ${i + 1}`,
    url: new URL(url).origin,
  }));
  return [
    {
      name: 'This server',
      hosts: [{ name: 'FileRunner', url: config.publicUrl }, ...storageHosts],
    },
  ];
}

/** Public: support staff open the latency page with people who may not be able to sign in. */
export async function latencyRoutes(app: FastifyInstance, { ctx }: { ctx: AppContext }) {
  serve(app, routes.hosts, async () => ({ groups: [...latencyGroups(ctx.config, ctx.storage)] }));
}
