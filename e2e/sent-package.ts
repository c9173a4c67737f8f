import {
  planUpload,
  nodeUploadPorts,
  UploadRunner,
  type ByteSource,
} from '@filerunner/transfer/node';
import { api } from '@filerunner/protocol';
import { apiLogin, DEMO_PASSWORD } from './harness';

/** A file of a package sent in a test: its path in the package and its bytes. */
export interface PackageFile {
  path: string;
  bytes: Buffer;
}

/** The session cookie of a person logged in through the API, for the upload engine's calls. */
async function sessionCookie(baseUrl: string, email: string): Promise<string> {
  const login = await fetch(`${baseUrl}/api/authenticate/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-client-version': 'e2e' },
    body: JSON.stringify({ email, password: DEMO_PASSWORD }),
  });
  if (!login.ok) throw new Error(`login of ${email} failed (${login.status})`);
  return login.headers.get('set-cookie')!.split(';')[0]!;
}

/**
 * A demo user (`sender`) sends `files` to demo users of the demo contract with the upload
 * engine, as the Share screen would; answers the package's slug.
 */
export async function sendDemoPackage(
  baseUrl: string,
  sent: {
    sender: string;
    recipients: string[];
    name: string;
    message: string;
    files: PackageFile[];
  },
): Promise<string> {
  const sender = await apiLogin(baseUrl, sent.sender, DEMO_PASSWORD);
  const groups = await sender.call(api.recipients.list, { params: { slug: 'demo' } });
  const idOf = (email: string) =>
    groups.flatMap((g) => g.members).find((m) => m.email === email)!.id;
  const sources: ByteSource[] = sent.files.map((f) => ({
    path: f.path,
    size: f.bytes.length,
    lastModified: 1_700_000_000_000,
    slice: (start, end) => new Blob([new Uint8Array(f.bytes.subarray(start, end))]),
  }));
  const runner = new UploadRunner(
    {
      api: {
        baseUrl: `${baseUrl}/api`,
        headers: { cookie: await sessionCookie(baseUrl, sent.sender), 'x-client-version': 'e2e' },
      },
      plan: planUpload(sources),
      package: {
        create: {
          contract: 'demo',
          name: sent.name,
          message: sent.message,
          recipients: sent.recipients.map((email) => ({ id: idOf(email) })),
          valid_from: new Date().toISOString(),
          valid_to: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        },
      },
    },
    nodeUploadPorts(),
  );
  const record = await runner.start();
  if (record.status !== 'COMPLETED') throw new Error(`the upload ended ${record.status}`);
  return runner.package!.slug;
}
