import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '@filerunner/protocol';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { apiLogin, DEMO_PASSWORD, launchBrowser } from '../harness';
import { folderToPick, freshPage, logIn, patternOf, sendPickedFolder } from '../pages';
import { demoSender, sendDemoPackage, type PackageFile } from '../sent-package';
import type { CapturedMail } from '../harness';
import { startCluster, type Cluster } from './cluster';

// Three app nodes behind nginx on one PostgreSQL and one Swift, started as an operator would
// (scripts/cluster.sh): the product behaves as one service whichever node answers, and when one
// of them dies or restarts.

let cluster: Cluster;
let browser: Browser;
beforeAll(async () => {
  cluster = await startCluster(3);
  browser = await launchBrowser();
});
// The cluster's logs go with it: a failed test prints what the nodes and the balancer said.
beforeEach(({ onTestFailed }) => {
  const since = Date.now();
  onTestFailed(async () => {
    console.error(
      `what the cluster logged during the test:\n${await cluster.failureReport(since)}`,
    );
  });
});
afterAll(async () => {
  await browser?.close();
  await cluster?.stop();
});

/** Packages swept so far, summed over the nodes' own counts. */
async function sweptOnEveryNode(): Promise<number> {
  let swept = 0;
  for (let i = 1; i <= cluster.nodes; i++) {
    swept += await cluster.metric(i, 'filerunner_packages_swept_total');
  }
  return swept;
}

const sha = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The download URL of a package's tar for the demo recipient, through the balancer. */
async function tarGrant(slug: string) {
  const recipient = await apiLogin(cluster.url, 'recipient@example.com', DEMO_PASSWORD);
  return recipient.call(api.downloads.packageGrant, { params: { slug } });
}

/**
 * Downloads `url` in `parts` ranges at once, each read slowly (so a node can die under it), and
 * resumes a range cut short from its last byte with If-Range, as the download engine does.
 * Answers the bytes and how many times a range was resumed.
 */
async function slowRangedDownload(url: string, size: number, parts: number, msPerMiB: number) {
  const head = await fetch(url, { method: 'HEAD' });
  const etag = head.headers.get('etag')!;
  const out = Buffer.alloc(size);
  let resumed = 0;
  const step = Math.ceil(size / parts);
  await Promise.all(
    Array.from({ length: parts }, async (_, part) => {
      let at = part * step;
      const end = Math.min(size, at + step);
      for (let attempt = 0; at < end; attempt++) {
        if (attempt > 10) throw new Error(`range ${part} failed 10 times`);
        if (attempt > 0) resumed++;
        try {
          const response = await fetch(url, {
            headers: { range: `bytes=${at}-${end - 1}`, 'if-range': etag },
          });
          if (response.status !== 206) throw new Error(`range answered ${response.status}`);
          const reader = response.body!.getReader();
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            out.set(value, at);
            at += value.length;
            await new Promise((resolve) =>
              setTimeout(resolve, (value.length / 2 ** 20) * msPerMiB),
            );
          }
        } catch {
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    }),
  );
  return { bytes: out, resumed };
}

describe('a cluster of three nodes behind nginx', () => {
  it('holds a session signed in through the balancer on every node', async () => {
    const login = await fetch(`${cluster.url}/api/authenticate/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-version': 'cluster' },
      body: JSON.stringify({ email: 'sender@example.com', password: DEMO_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const cookie = login.headers.get('set-cookie')!.split(';')[0]!;
    for (let i = 1; i <= cluster.nodes; i++) {
      const me = await fetch(`${cluster.nodeUrl(i)}/api/user/`, {
        headers: { cookie, 'x-client-version': 'cluster' },
      });
      expect(me.status, `node ${i}`).toBe(200);
    }
  });

  it('resumes ranged downloads on the other nodes when one dies under them', async () => {
    const file: PackageFile = { path: 'reel/A001.mov', bytes: randomBytes(96 * 2 ** 20) };
    const slug = await sendDemoPackage(cluster.url, {
      sender: 'sender@example.com',
      recipients: ['recipient@example.com'],
      name: 'Killed mid-download',
      message: '',
      files: [file],
    });
    const grant = await tarGrant(slug);
    // 4 ranges of 24 MiB at about 6 MiB/s each: 4 s of reading, long enough to kill a node
    // under it, and more than the socket buffers between node, balancer and client hold.
    const download = slowRangedDownload(grant.download_url, grant.size, 4, 160);
    let victim = 0;
    await vi.waitFor(
      async () => {
        for (let i = 1; i <= cluster.nodes && victim === 0; i++) {
          const serving = await cluster.metric(
            i,
            'filerunner_transfers_in_progress{direction="download"}',
          );
          if (serving > 0) victim = i;
        }
        expect(victim).toBeGreaterThan(0);
      },
      { timeout: 10_000, interval: 50 },
    );
    await cluster.kill(victim);
    const { bytes, resumed } = await download;
    expect(resumed).toBeGreaterThan(0);
    // The tar holds the file after its 512-byte header, byte for byte.
    expect(sha(bytes.subarray(512, 512 + file.bytes.length))).toBe(sha(file.bytes));
    await cluster.startNode(victim);
    // The balancer logged every range, without the token that lets its reader download them.
    const token = new URL(grant.download_url).pathname.split('/')[3]!;
    const log = await readFile(path.join(cluster.dir, 'logs', 'nginx-access.log'), 'utf8');
    expect(log).toContain('"GET /api/downloads/[secret]/Killed mid-download.tar" 206');
    expect(log).not.toContain(token);
  });

  it('runs each job once: one mail per package and per report, however many nodes', async () => {
    const names = Array.from({ length: 200 }, (_, i) => `Once ${i + 1}`);
    // All 200 at once: their finalise calls (and the mail each queues) land on the three nodes
    // together, and all three outboxes and job runners compete for the work.
    const sender = await demoSender(cluster.url, 'sender@example.com');
    await Promise.all(
      names.map((name) =>
        sender.send({
          recipients: ['recipient@example.com'],
          name,
          message: '',
          files: [{ path: 'note.txt', bytes: Buffer.from(name) }],
        }),
      ),
    );
    // Reports asked at once through the balancer, each for its own period.
    const admin = await apiLogin(cluster.url, 'admin@example.com', DEMO_PASSWORD);
    const day = (daysAgo: number) =>
      new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);
    const to = day(0);
    const periods = Array.from({ length: 6 }, (_, i) => day(10 * (i + 1)));
    await Promise.all(
      periods.map((from) =>
        admin.call(api.activity.exportCsv, {
          params: { slug: 'demo' },
          body: { report_period: 'custom', date_from: from, date_to: to },
        }),
      ),
    );
    const aboutPackage = (mails: CapturedMail[], name: string) =>
      mails.filter((m) => m.subject.endsWith(`sent you "${name}"`));
    const aboutReport = (mails: CapturedMail[], from: string) =>
      mails.filter((m) => m.subject.endsWith(`: ${from} to ${to}`));
    await vi.waitFor(
      async () => {
        const mails = await cluster.mails();
        for (const name of names) expect(aboutPackage(mails, name).length, name).toBeGreaterThan(0);
        for (const from of periods)
          expect(aboutReport(mails, from).length, from).toBeGreaterThan(0);
      },
      { timeout: 120_000, interval: 1000 },
    );
    // Long enough for a second node to send what the first sent, if the lease let it.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const mails = await cluster.mails();
    for (const name of names) {
      expect(aboutPackage(mails, name), name).toHaveLength(1);
      expect(aboutPackage(mails, name)[0]!.to).toContain('recipient@example.com');
    }
    for (const from of periods) expect(aboutReport(mails, from), from).toHaveLength(1);
  });

  it('deletes each expired package once, whichever node sweeps it', async () => {
    const names = Array.from({ length: 30 }, (_, i) => `Swept ${i + 1}`);
    const grants = [];
    for (const name of names) {
      const slug = await sendDemoPackage(cluster.url, {
        sender: 'sender@example.com',
        recipients: ['recipient@example.com'],
        name,
        message: '',
        files: [{ path: 'note.txt', bytes: Buffer.from(name) }],
      });
      grants.push(await tarGrant(slug));
    }
    const sweptBefore = await sweptOnEveryNode();
    const db = new pg.Client({ connectionString: cluster.databaseUrl });
    await db.connect();
    try {
      await db.query(
        "update packages set expires_at = now() - interval '1 minute' where name like 'Swept %'",
      );
      await vi.waitFor(
        async () => {
          const left = await db.query(
            "select count(*)::int as n from packages where name like 'Swept %' and objects_deleted_at is null",
          );
          expect(left.rows[0].n).toBe(0);
        },
        { timeout: 60_000, interval: 500 },
      );
    } finally {
      await db.end();
    }
    // Three nodes sweeping every 2 s: every package swept by exactly one of them.
    expect((await sweptOnEveryNode()) - sweptBefore).toBe(names.length);
    // Their download links now answer that the package has expired.
    for (const grant of grants.slice(0, 3)) {
      expect((await fetch(grant.download_url, { method: 'HEAD' })).status).toBe(410);
    }
  });

  it('restarts node by node under load without one failed request', async () => {
    const recipient = await fetch(`${cluster.url}/api/authenticate/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-client-version': 'cluster' },
      body: JSON.stringify({ email: 'recipient@example.com', password: DEMO_PASSWORD }),
    });
    const cookie = recipient.headers.get('set-cookie')!.split(';')[0]!;
    const downloadFile: PackageFile = { path: 'reel/B001.mov', bytes: randomBytes(96 * 2 ** 20) };
    const downloadSlug = await sendDemoPackage(cluster.url, {
      sender: 'sender@example.com',
      recipients: ['recipient@example.com'],
      name: 'Downloaded while restarting',
      message: '',
      files: [downloadFile],
    });
    const grant = await tarGrant(downloadSlug);

    // A steady load of calls: the Inbox as the recipient's browser asks for it, in 4 loops.
    let restarting = true;
    const calls = { answered: 0, failed: [] as string[] };
    const load = Promise.all(
      Array.from({ length: 4 }, async () => {
        while (restarting) {
          try {
            const response = await fetch(
              `${cluster.url}/api/packages/received/?page=1&contract_slug=demo`,
              {
                headers: { cookie, 'x-client-version': 'cluster' },
              },
            );
            await response.arrayBuffer();
            if (response.status >= 500) calls.failed.push(`${response.status}`);
            else calls.answered++;
          } catch (error) {
            calls.failed.push(String(error));
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
      }),
    );
    const uploadFile: PackageFile = { path: 'reel/C001.mov', bytes: randomBytes(128 * 2 ** 20) };
    const upload = sendDemoPackage(cluster.url, {
      sender: 'sender@example.com',
      recipients: ['recipient@example.com'],
      name: 'Sent while restarting',
      message: '',
      files: [uploadFile],
    });
    // About 5 MiB/s in all: the download runs through the restarts.
    const download = slowRangedDownload(grant.download_url, grant.size, 4, 800);

    for (let i = 1; i <= cluster.nodes; i++) {
      await cluster.stopNode(i);
      await cluster.startNode(i);
    }
    restarting = false;
    await load;
    const uploadedSlug = await upload;
    const { bytes } = await download;

    expect(calls.failed).toEqual([]);
    expect(calls.answered).toBeGreaterThan(100);
    expect(sha(bytes.subarray(512, 512 + downloadFile.bytes.length))).toBe(sha(downloadFile.bytes));
    const sent = await tarGrant(uploadedSlug);
    const tar = Buffer.from(await (await fetch(sent.download_url)).arrayBuffer());
    expect(sha(tar.subarray(512, 512 + uploadFile.bytes.length))).toBe(sha(uploadFile.bytes));
  });

  it('finishes a send from the Share screen while a node dies under it', async () => {
    const page = await freshPage(browser);
    await logIn(page, cluster.url, 'sender@example.com', DEMO_PASSWORD);
    await page.goto(`${cluster.url}/share`);
    const files = [
      { name: 'A002.mov', size: 48 * 2 ** 20 },
      ...Array.from({ length: 30 }, (_, i) => ({ name: `frame_${1001 + i}.dpx`, size: 300_000 })),
    ];
    await folderToPick(page, 'reel-2', files);
    await sendPickedFolder(page, 'Sent through a dying node');
    // Once the upload runs, one node dies; the engine's next calls go to the others.
    await page
      .getByText(/Uploading|\d+%/)
      .first()
      .waitFor({ timeout: 30_000 });
    await cluster.kill(1);
    await page
      .getByTestId('sent-status')
      .filter({ hasText: 'Your package has been sent.' })
      .waitFor({ timeout: 120_000 });
    await page.context().close();
    await cluster.startNode(1);

    const sender = await apiLogin(cluster.url, 'sender@example.com', DEMO_PASSWORD);
    const sent = await sender.call(api.inbox.sentList, {
      query: { page: 1, contract_slug: 'demo' },
    });
    const pkg = sent.packages.find((p) => p.name === 'Sent through a dying node')!;
    for (const file of [files[0]!, files[29]!]) {
      const recipient = await apiLogin(cluster.url, 'recipient@example.com', DEMO_PASSWORD);
      const grant = await recipient.call(api.downloads.fileGrant, {
        params: { slug: pkg.slug, '*': `reel-2/${file.name}` },
      });
      const bytes = new Uint8Array(await (await fetch(grant.download_url)).arrayBuffer());
      expect(sha(bytes), file.name).toBe(sha(patternOf(file.name, file.size)));
    }
  });

  it('tells a browser on one node of a package sent through another, and reconnects', async () => {
    const page = await freshPage(browser);
    await logIn(page, cluster.url, 'recipient@example.com', DEMO_PASSWORD);
    await page.goto(`${cluster.url}/inbox`);
    // Marks this document: a reload would lose it.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    const received = page.getByRole('list', { name: 'Received packages' });
    // The node holding the page's socket, from each node's own count.
    let socketNode = 0;
    await vi.waitFor(
      async () => {
        for (let i = 1; i <= cluster.nodes && socketNode === 0; i++) {
          if ((await cluster.metric(i, 'filerunner_realtime_connections')) > 0) socketNode = i;
        }
        expect(socketNode).toBeGreaterThan(0);
      },
      { timeout: 15_000, interval: 100 },
    );
    const other = (socketNode % cluster.nodes) + 1;
    const sendThrough = (node: number, name: string) =>
      sendDemoPackage(cluster.nodeUrl(node), {
        sender: 'sender@example.com',
        recipients: ['recipient@example.com'],
        name,
        message: '',
        files: [{ path: 'note.txt', bytes: Buffer.from(name) }],
      });

    await sendThrough(other, `Finalised on node ${other}`);
    await received.getByText(`Finalised on node ${other}`).waitFor({ timeout: 10_000 });

    // The socket's node dies: the page connects again through the balancer, to another node.
    await cluster.kill(socketNode);
    await vi.waitFor(
      async () => {
        let sockets = 0;
        for (let i = 1; i <= cluster.nodes; i++) {
          if (i !== socketNode)
            sockets += await cluster.metric(i, 'filerunner_realtime_connections');
        }
        expect(sockets).toBe(1);
      },
      // The page tries again after 1, 4, 9… seconds (attempt squared, at most 30 s).
      { timeout: 31_000, interval: 250 },
    );
    await sendThrough(other, 'After the node died');
    await received.getByText('After the node died').waitFor({ timeout: 10_000 });
    expect(await page.evaluate(() => 'notReloaded' in window)).toBe(true);
    await page.context().close();
    await cluster.startNode(socketNode);
  });
});
