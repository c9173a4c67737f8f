import { api, type RouteClient } from '@filerunner/protocol';
import { signedInClient } from '@filerunner/transfer/node';
import { objectPutGrants, type BaselineObject } from './baseline-grants';

const HOUR = 3_600_000;

/** The API as a signed-in demo user, from the bench's own process (grants, settings). */
export function apiSession(origin: string, email: string, password: string) {
  return signedInClient(origin, email, password, 'bench');
}

type Call = RouteClient;

/** Turns the demo contract's slab files on or off (an admin's Settings screen does this). */
export async function setSlabFiles(admin: Call, on: boolean): Promise<void> {
  await admin.call(api.contracts.updateSettings, {
    params: { slug: 'demo' },
    body: { use_slab_files: on },
  });
}

/**
 * A fresh package of `files` for the demo recipient and a PUT grant for each of the `objects`
 * a baseline will write (segments of the declared files, the only names storage takes): answers
 * the signed URL of each object by name.
 */
export async function baselineGrants(
  sender: Call,
  files: { path: string; size: number }[],
  objects: readonly BaselineObject[],
) {
  const groups = await sender.call(api.recipients.list, { params: { slug: 'demo' } });
  const recipient = groups.flatMap((g) => g.members).find((m) => m.email.startsWith('recipient'));
  const size = files.reduce((sum, f) => sum + f.size, 0);
  const pkg = await sender.call(api.packages.create, {
    body: {
      contract: 'demo',
      name: 'Baseline',
      recipients: [{ id: recipient!.id }],
      valid_from: new Date().toISOString(),
      valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
      expected_files: files.length,
      expected_size: size,
      intended_files: files.map((f) => ({ filename: f.path, size: f.size })),
    },
  });
  return objectPutGrants(sender, pkg.slug, objects);
}
