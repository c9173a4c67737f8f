import {
  FetchHttpClient,
  planUpload,
  nodeUploadPorts,
  UploadRunner,
  type ByteSource,
} from '@filerunner/transfer/node';
import { api, type HttpClient } from '@filerunner/protocol';
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

/** What a package sent in a test is: who sends it to whom, named how, with which files. */
export interface DemoPackage {
  sender: string;
  recipients: string[];
  name: string;
  message: string;
  files: PackageFile[];
}

/** The demo sender's notes to the demo recipient that several suites download or look at. */
export const GRADE_NOTES = {
  recipients: ['recipient@example.com'],
  name: 'Grade notes',
  message: 'For the review',
  files: [
    { path: 'Grade/notes.txt', bytes: Buffer.from('Warmer in the second half.\n') },
    { path: 'Grade/lut.cube', bytes: Buffer.alloc(40_000, 7) },
  ],
} satisfies Omit<DemoPackage, 'sender'>;

/**
 * A demo user (`sender`) sends `files` to demo users of the demo contract with the upload
 * engine, as the Share screen would; answers the package's slug.
 */
export async function sendDemoPackage(baseUrl: string, sent: DemoPackage): Promise<string> {
  return (await demoSender(baseUrl, sent.sender)).send(sent);
}

/**
 * The engine's HTTP client, remembering the last answers that failed (method, path without its
 * query, status or why none came): a send that fails a test says what the server or the store
 * answered, which the engine's own message ("Uploads failed to complete") leaves out.
 */
function httpRememberingFailures(): { http: HttpClient; failures: string[] } {
  const inner = new FetchHttpClient();
  const failures: string[] = [];
  const remember = (failure: string) => {
    failures.push(failure);
    if (failures.length > 5) failures.shift();
  };
  return {
    failures,
    http: {
      async request(request) {
        const what = `${request.method} ${new URL(request.url).pathname}`;
        try {
          const response = await inner.request(request);
          if (response.status >= 400) remember(`${what} answered ${response.status}`);
          return response;
        } catch (error) {
          remember(`${what} got no answer (${error instanceof Error ? error.message : error})`);
          throw error;
        }
      },
    },
  };
}

/** Long enough for a small package on a loaded machine, short of any test's timeout. */
const SEND_DEADLINE_MS = 90_000;

/**
 * A demo user signed in once, sending as many packages as a test needs on that one session (a
 * burst of sign-ins would meet the login rate limit, as it should).
 */
export async function demoSender(baseUrl: string, email: string) {
  const sender = await apiLogin(baseUrl, email, DEMO_PASSWORD);
  const groups = await sender.call(api.recipients.list, { params: { slug: 'demo' } });
  const idOf = (address: string) =>
    groups.flatMap((g) => g.members).find((m) => m.email === address)!.id;
  const cookie = await sessionCookie(baseUrl, email);
  return {
    async send(sent: Omit<DemoPackage, 'sender'>): Promise<string> {
      const sources: ByteSource[] = sent.files.map((f) => ({
        path: f.path,
        size: f.bytes.length,
        lastModified: 1_700_000_000_000,
        slice: (start, end) => new Blob([new Uint8Array(f.bytes.subarray(start, end))]),
      }));
      const { http, failures } = httpRememberingFailures();
      const runner = new UploadRunner(
        {
          api: { baseUrl: `${baseUrl}/api`, headers: { cookie, 'x-client-version': 'e2e' } },
          plan: planUpload(sources),
          package: {
            create: {
              contract: 'demo',
              name: sent.name,
              message: sent.message,
              recipients: sent.recipients.map((address) => ({ id: idOf(address) })),
              valid_from: new Date().toISOString(),
              valid_to: new Date(Date.now() + 5 * 86_400_000).toISOString(),
            },
          },
        },
        nodeUploadPorts({ http }),
      );
      // A send that waits forever (paused, or on an answer that never comes) fails the test with
      // what the engine was doing, rather than leaving it to the test's timeout to say nothing.
      let overdue: NodeJS.Timeout | undefined;
      const record = await Promise.race([
        runner.start(),
        new Promise<never>((_, reject) => {
          overdue = setTimeout(() => {
            const { status, pausedFor, error } = runner.record;
            const why = [status, pausedFor, error, ...failures].filter(Boolean).join(', ');
            reject(new Error(`"${sent.name}" not sent after ${SEND_DEADLINE_MS} ms: ${why}`));
          }, SEND_DEADLINE_MS);
        }),
      ]).finally(() => clearTimeout(overdue));
      if (record.status !== 'COMPLETED') {
        throw new Error(`the upload ended ${record.status}: ${failures.join(', ')}`);
      }
      return runner.package!.slug;
    },
  };
}
