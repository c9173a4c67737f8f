/**
 * One upload through the transfer engine's Node entry, in a process of its own (as the CLI runs
 * it): logs in as the demo sender, picks the paths given, creates the package as the Share
 * screen would, prints `ready`, and on a line on stdin sends it with `nodeUploadPorts` (fetch,
 * files on disk, a JSON ledger file, xxh128) and the contract's settings. Prints one JSON line:
 * seconds from the runner's start to COMPLETED, and this process's CPU and peak memory.
 *
 *   node --import tsx bench/upload/node-send.ts '{"origin":…,"password":…,"paths":[…],"ledgerFile":…}'
 */
import { api, createRouteClient } from '@filerunner/protocol';
import {
  intendedFilesOf,
  keepingSessionCookie,
  nodeUploadPorts,
  planUpload,
  UploadRunner,
  walkPaths,
  type HttpClient,
} from '@filerunner/transfer/node';
import { engineSent } from './page/engine-report';

const HOUR = 3_600_000;
/** Where an upload stops moving by itself: done, or waiting for the person. */
const settled = ['COMPLETED', 'FORCE_COMPLETED', 'FAILED', 'INCOMPLETE'];
const { origin, password, paths, ledgerFile } = JSON.parse(process.argv[2]!) as {
  origin: string;
  password: string;
  paths: string[];
  ledgerFile: string;
};

const ports = nodeUploadPorts({ ledgerFile });
// Signed in as the page is: the session cookie goes with every call, the runner's included.
const signedIn = keepingSessionCookie(ports.http);
const client = createRouteClient({
  http: signedIn,
  baseUrl: `${origin}/api`,
  clientVersion: 'bench',
});
await client.call(api.accounts.authenticate, { body: { email: 'sender@example.com', password } });

const { settings } = (await client.call(api.contracts.list)).find((c) => c.slug === 'demo')!;
const recipient = (await client.call(api.recipients.list, { params: { slug: 'demo' } }))
  .flatMap((g) => g.members)
  .find((m) => m.email.startsWith('recipient'))!;

const plan = planUpload(await walkPaths(paths), { useSlabFiles: settings.use_slab_files });
const pkg = await client.call(api.packages.create, {
  body: {
    contract: 'demo',
    name: 'Node entry',
    recipients: [{ id: recipient.id }],
    valid_from: new Date().toISOString(),
    valid_to: new Date(Date.now() + 48 * HOUR).toISOString(),
    ...intendedFilesOf(plan),
  },
});

const requests = { storage: 0, api: 0 };
const http: HttpClient = {
  request(request) {
    if (new URL(request.url).pathname.startsWith('/api/')) requests.api++;
    else requests.storage++;
    return signedIn.request(request);
  },
};
const runner = new UploadRunner(
  {
    api: { baseUrl: `${origin}/api`, headers: { 'x-client-version': 'bench' } },
    plan,
    package: pkg,
    workers: settings.number_of_upload_workers,
  },
  { ...ports, http },
);
// The bench starts its meters between `ready` and its go: picking and creating are not measured.
process.stdout.write('ready\n');
await new Promise((resolve) => process.stdin.once('data', resolve));
process.stdin.pause();
const cpuBefore = process.cpuUsage();
const started = performance.now();
void runner.start();
// A stalled upload would wait forever: after a minute without progress this process ends.
let last = '';
let since = performance.now();
const watch = setInterval(() => {
  const { progress, status } = runner.record;
  const now = `${status} ${progress.completedFiles} ${progress.completedBytes}`;
  if (now !== last) [last, since] = [now, performance.now()];
  if (performance.now() - since < 60_000) return;
  process.stderr.write(
    `node-send: no progress for 60 s (${status}, ${progress.completedFiles} files)\n`,
  );
  process.exit(1);
}, 1000);
// A failed upload waits for the person's retry; the bench stops there instead.
const record = await runner.when((r) => settled.includes(r.status));
clearInterval(watch);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage(cpuBefore);
if (record.status !== 'COMPLETED') {
  runner.cancel();
  const failed = record.failedFiles.length;
  throw new Error(`the upload ended ${record.status} (${failed} files failed): ${record.error}`);
}
process.stdout.write(
  `${JSON.stringify({
    seconds,
    files: record.progress.completedFiles,
    client_cpu_s: (cpu.user + cpu.system) / 1e6,
    client_peak_rss_mib: Math.round(process.resourceUsage().maxRSS / 1024),
    ...engineSent(settings, plan, requests),
  })}\n`,
);
