import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { startTestServer, useTestServer, type TestServer } from '../../test/harness';
import { everyKindOfFile, listeningSender } from '../../test/uploader';

// What an operator's Prometheus scrapes: only with the token, the figures named as documented,
// and moving as a package is sent and downloaded.

const TOKEN = 'metrics-token-for-tests';
let server: TestServer;
useTestServer((t) => (server = t.server), { METRICS_TOKEN: TOKEN });

async function scrape(authorization = `Bearer ${TOKEN}`) {
  const response = await server.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization },
  });
  return {
    status: response.statusCode,
    text: response.body,
    type: response.headers['content-type'],
  };
}

/** The value of one sample, e.g. `filerunner_uploaded_files_total` or `x{a="b"}`; 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe('/metrics', () => {
  it('is served only to the bearer of the token', async () => {
    expect((await scrape('Bearer wrong-token-of-same-len')).status).toBe(401);
    expect((await scrape('')).status).toBe(401);
    const ok = await scrape();
    expect(ok.status).toBe(200);
    expect(ok.type).toMatch(/^text\/plain; version=0\.0\.4/);
  });

  it('does not exist without a token', async () => {
    const bare = await startTestServer();
    try {
      // Answered as any path the product does not have.
      const metrics = await bare.app.inject({ method: 'GET', url: '/metrics' });
      const nothing = await bare.app.inject({ method: 'GET', url: '/no-such-page' });
      expect(metrics.statusCode).toBe(nothing.statusCode);
      expect(metrics.body).not.toContain('filerunner_');
    } finally {
      await bare.close();
    }
  });

  it('counts files and bytes sent and downloaded, and times requests by route', async () => {
    const { origin, fx, sender } = await listeningSender(server, 'Metrics');
    const { slabbed, all } = everyKindOfFile();
    const bytes = all.reduce((sum, f) => sum + f.bytes.length, 0);
    const before = (await scrape()).text;

    const pkg = await sender.createOf(all, {
      contract: fx.contract.slug,
      name: 'Counted',
      recipients: [{ id: fx.receiver.user.id }],
    });
    await sender.send(all, { pkg }, { slabbed });
    const grant = await server.app.inject({
      method: 'GET',
      url: `/api/packages/${pkg.slug}/download/`,
      headers: fx.receiver.headers,
    });
    const token = new URL(grant.json<{ download_url: string }>().download_url).pathname;
    const tar = await fetch(origin + token);
    const tarBytes = (await tar.arrayBuffer()).byteLength;
    // The record (and the count) is written once the response has closed.
    await server.ctx.pendingWork.settled();

    const after = (await scrape()).text;
    const grew = (series: string) => sample(after, series) - sample(before, series);
    expect(grew('filerunner_uploaded_files_total')).toBe(all.length);
    expect(grew('filerunner_uploaded_bytes_total')).toBe(bytes);
    expect(grew('filerunner_downloaded_files_total')).toBe(all.length);
    expect(grew('filerunner_downloaded_bytes_total')).toBe(tarBytes);
    expect(sample(after, 'filerunner_transfers_in_progress{direction="download"}')).toBe(0);
    expect(sample(after, 'filerunner_transfers_in_progress{direction="upload"}')).toBe(0);

    // Requests are labelled by pattern: no token, slug or key ever becomes a label.
    expect(after).toContain('route="/api/packages/:slug/download/"');
    expect(after).toMatch(
      /filerunner_http_request_duration_seconds_count\{route="\/api\/downloads\/:token\/:filename",method="GET",status="200"\} [1-9]/,
    );
    expect(after).not.toContain(pkg.slug);
    expect(after).not.toContain(token.split('/')[3]!);
  });

  it('reports the database pool, the outbox, realtime sockets and the process', async () => {
    const { text } = await scrape();
    for (const series of [
      'filerunner_db_pool_connections{state="in_use"}',
      'filerunner_db_pool_connections{state="idle"}',
      'filerunner_db_pool_waiting',
      'filerunner_outbox_pending',
      'filerunner_outbox_oldest_age_seconds',
      'filerunner_realtime_connections',
      'nodejs_eventloop_lag_seconds',
      'process_resident_memory_bytes',
    ]) {
      expect(text, series).toMatch(new RegExp(`^${series.replace(/[{}"]/g, '\\$&')} \\d`, 'm'));
    }
  });

  it('has every series the Grafana dashboard charts', async () => {
    const dashboard = JSON.parse(
      await readFile(new URL('../../../../docs/grafana-dashboard.json', import.meta.url), 'utf8'),
    ) as { panels: { targets: { expr: string }[] }[] };
    const { text } = await scrape();
    // Every metric is declared by a TYPE line, even one with no sample yet.
    const declared = new Set(text.split('\n').map((line) => /^# TYPE (\S+)/.exec(line)?.[1]));
    const charted = dashboard.panels.flatMap((p) =>
      p.targets.flatMap((t) => t.expr.match(/\b(filerunner|nodejs|process)_[a-z0-9_]+/g) ?? []),
    );
    expect(charted.length).toBeGreaterThan(10);
    for (const series of charted) {
      expect(declared, series).toContain(series.replace(/_(bucket|count|sum)$/, ''));
    }
  });
});
