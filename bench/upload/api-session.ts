import type { BulkResponse } from '@filerunner/protocol';

const HOUR = 3_600_000;

/** The API as a signed-in demo user, from the bench's own process (grants, settings). */
export async function apiSession(origin: string, email: string, password: string) {
  const base = { 'content-type': 'application/json', 'x-client-version': 'bench' };
  const login = await fetch(`${origin}/api/authenticate/`, {
    method: 'POST',
    headers: base,
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`login of ${email} answered ${login.status}`);
  const headers = { ...base, cookie: login.headers.getSetCookie()[0]!.split(';')[0]! };
  return async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown) {
    const response = await fetch(`${origin}/api${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    return JSON.parse(text) as T;
  };
}

type Call = Awaited<ReturnType<typeof apiSession>>;

/** Turns the demo contract's slab files on or off (an admin's Settings screen does this). */
export async function setSlabFiles(admin: Call, on: boolean): Promise<void> {
  await admin('POST', '/contracts/demo/settings/', { use_slab_files: on });
}

/**
 * A fresh package of `files` for the demo recipient and its prefix PUT grant: answers the
 * signed URL of any object name under the package's prefix, for baselines that PUT raw objects.
 */
export async function prefixGrant(sender: Call, files: { path: string; size: number }[]) {
  type Group = { members: { id: number; email: string }[] };
  const groups = await sender<Group[]>('GET', '/contracts/demo/recipients/');
  const recipient = groups.flatMap((g) => g.members).find((m) => m.email.startsWith('recipient'));
  const size = files.reduce((sum, f) => sum + f.size, 0);
  const pkg = await sender<{ slug: string }>('POST', '/packages/create/', {
    contract: 'demo',
    name: 'Baseline',
    recipients: [{ id: recipient!.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
    expected_files: files.length,
    expected_size: size,
    intended_files: files.map((f) => ({ filename: f.path, size: f.size })),
  });
  const grants = await sender<BulkResponse>('POST', `/packages/${pkg.slug}/bulk/`, {
    batches: [],
    large_file_total_size: size,
  });
  const t = grants.tempurl_data;
  const query = new URL(t.temp_url, t.swift_endpoint).search;
  const encode = (name: string) => name.split('/').map(encodeURIComponent).join('/');
  return (name: string) => `${t.swift_endpoint}${t.swift_path}${encode(name)}${query}`;
}
