import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { readMailFolder, type CapturedMail } from '../../apps/server/test/captured-mail';
import { DEMO_PASSWORD, repoRoot } from '../harness';

const run = promisify(execFile);

/** The token the cluster's nodes serve /metrics with; the suites read figures per node. */
export const METRICS_TOKEN = 'cluster-suite-metrics-token';

/**
 * A cluster started by `scripts/cluster.sh` (N nodes, PostgreSQL, Swift, nginx), as an operator
 * starts one. Nodes are numbered from 1; `url` is the balancer's.
 */
export interface Cluster {
  readonly dir: string;
  readonly url: string;
  readonly nodes: number;
  /** The cluster's own database, for what a test must change behind the product's back. */
  readonly databaseUrl: string;
  /** The address of node `i` itself, past the balancer. */
  nodeUrl(i: number): string;
  /** SIGKILL: the node dies mid-request, as a crashed machine would. */
  kill(i: number): Promise<void>;
  /** SIGTERM, then waits for the node to exit (it finishes what it serves first). */
  stopNode(i: number): Promise<void>;
  startNode(i: number): Promise<void>;
  /** Every mail the nodes captured (each node keeps its own folder), oldest first. */
  mails(): Promise<CapturedMail[]>;
  /** A figure of node `i`'s /metrics, e.g. `filerunner_transfers_in_progress{direction="download"}`. */
  metric(i: number, series: string): Promise<number>;
  /**
   * What the cluster logged that a failed test's reader needs, since `since` (ms): each node's
   * warnings and errors, the balancer's errors, and the requests it answered with a 5xx or a
   * node answered with one (the logs are deleted with the cluster, so a failure prints this).
   */
  failureReport(since: number): Promise<string>;
  stop(): Promise<void>;
}

const script = path.join(repoRoot, 'scripts/cluster.sh');
const FIRST_NODE_PORT = 18181;

export async function startCluster(nodes = 3): Promise<Cluster> {
  const dir = await mkdtemp(path.join(tmpdir(), 'fr-cluster-'));
  // A database of its own, dropped at the end: the demo contract is seeded afresh each time.
  const database = `fr_cluster_${path.basename(dir).replace(/\W/g, '_').toLowerCase()}`;
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const env = {
    ...process.env,
    CLUSTER_DATABASE: database,
    DATABASE_URL: serverUrl,
    CLUSTER_PORT: '18180',
    CLUSTER_NODE_PORT: String(FIRST_NODE_PORT),
    DEMO_PASSWORD,
    METRICS_TOKEN,
    // Sweeps every few seconds, so the suite sees every node compete for expired packages.
    OBJECT_SWEEP_SECONDS: '2',
    LOG_LEVEL: 'warn',
  };
  const cli = (...args: string[]) =>
    run('bash', [script, ...args], { env, cwd: repoRoot, maxBuffer: 16 * 1024 * 1024 });
  let started;
  try {
    started = await cli('start', dir, String(nodes));
  } catch (error) {
    await cli('stop', dir).catch(() => undefined);
    throw error;
  }
  const url = started.stdout.trim().split('\n').pop()!;
  const pidOf = async (i: number) =>
    Number(await readFile(path.join(dir, 'nodes', `${i}.pid`), 'utf8'));
  const nodeUrl = (i: number) => `http://127.0.0.1:${FIRST_NODE_PORT + i - 1}`;

  const databaseUrl = Object.assign(new URL(serverUrl), { pathname: `/${database}` }).href;
  return {
    dir,
    url,
    nodes,
    databaseUrl,
    nodeUrl,
    async kill(i) {
      const pid = await pidOf(i);
      process.kill(pid, 'SIGKILL');
      while (alive(pid)) await new Promise((resolve) => setTimeout(resolve, 50));
    },
    async stopNode(i) {
      await cli('stop-node', dir, String(i));
    },
    async startNode(i) {
      await cli('start-node', dir, String(i));
    },
    async mails() {
      const all: CapturedMail[] = [];
      for (const node of await readdir(path.join(dir, 'nodes'))) {
        if (/^\d+$/.test(node))
          all.push(...(await readMailFolder(path.join(dir, 'nodes', node, 'mail'))));
      }
      return all.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
    },
    async metric(i, series) {
      const response = await fetch(`${nodeUrl(i)}/metrics`, {
        headers: { authorization: `Bearer ${METRICS_TOKEN}` },
      });
      const line = (await response.text()).split('\n').find((l) => l.startsWith(`${series} `));
      return line ? Number(line.slice(series.length + 1)) : 0;
    },
    async failureReport(since) {
      return failureReport(path.join(dir, 'logs'), since);
    },
    async stop() {
      await cli('stop', dir);
      await rm(dir, { recursive: true, force: true });
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`drop database if exists "${database}" with (force)`);
      await admin.end();
    },
  };
}

/** Lines of the report per log, the last ones kept: enough to see a pattern, short enough to read. */
const REPORT_LINES = 40;

async function failureReport(logs: string, since: number): Promise<string> {
  const lines = async (file: string) =>
    (await readFile(path.join(logs, file), 'utf8').catch(() => '')).split('\n').filter(Boolean);
  const sections: string[] = [];
  const section = (title: string, found: string[]) => {
    if (found.length) sections.push(`== ${title}`, ...found.slice(-REPORT_LINES));
  };
  for (const file of (await readdir(logs)).filter((f) => /^node-\d+\.log$/.test(f)).sort()) {
    // pino's JSON lines: level 40 is a warning, 50 an error; the nodes redact their own secrets.
    section(
      file,
      (await lines(file)).filter((line) => {
        if (!line.startsWith('{')) return false;
        const entry = JSON.parse(line) as { level?: number; time?: number };
        return (entry.level ?? 0) >= 40 && (entry.time ?? 0) >= since;
      }),
    );
  }
  section('nginx-error.log', await lines('nginx-error.log'));
  // The balancer's log format (scripts/cluster.sh) keeps secrets out of its paths.
  section(
    'nginx-access.log: 5xx answers',
    (await lines('nginx-access.log')).filter((line) =>
      / 5\d\d |upstream_status=[^ ]*5\d\d/.test(line),
    ),
  );
  return sections.length ? sections.join('\n') : 'the cluster logged no warning, error or 5xx';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
