import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import {
  caller,
  contractFixture,
  groupOfSenderAndReceiver,
  setContractSettings,
  startTestServer,
  type TestServer,
} from '../../server/test/harness';
import { everyKindOfFile, TestUploader, type TestFile } from '../../server/test/uploader';

// Test support for the command's suites: the real bin in its own process, against a test server
// listening on a port of its own, as a script on another machine would reach it.

const bin = fileURLToPath(new URL('../bin/filerunner.js', import.meta.url));

/** A port nothing listens on now, on the loopback address the test servers bind. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A test server listening on 127.0.0.1. Grants name PUBLIC_URL, so the port is chosen before the
 * server is built and the command's storage requests and ranged GETs reach this server.
 */
export async function listeningServer(
  env: Record<string, string> = {},
): Promise<{ server: TestServer; origin: string }> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const server = await startTestServer({ ...env, PUBLIC_URL: origin });
  await server.app.listen({ host: '127.0.0.1', port });
  return { server, origin };
}

/** How a run of the command ended, with everything it wrote. */
export interface CommandResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Starts `filerunner <args>` with `env` over this process's environment (FILERUNNER_URL,
 * FILERUNNER_API_KEY, XDG_STATE_HOME as a script sets them), in `cwd` when given; `done`
 * resolves when it has ended.
 */
export function filerunnerProcess(args: string[], env: Record<string, string>, cwd?: string) {
  const child = spawn(process.execPath, [bin, ...args], {
    env: { ...process.env, ...env },
    ...(cwd ? { cwd } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<CommandResult>((resolve) =>
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, done };
}

/**
 * A package of every kind of file (see everyKindOfFile) that the fixture's sender sent with the
 * upload engine to the receiver, who shares a group with the sender, and `partner` by mail when
 * given (the contract then allows ad-hoc recipients); with an API key of the receiver's.
 */
export async function receivedPackage(
  server: TestServer,
  origin: string,
  options: { name: string; partner?: string },
) {
  const fx = await contractFixture(server);
  await groupOfSenderAndReceiver(server, fx, 'Crew');
  if (options.partner) await setContractSettings(server, fx.contract.id, { can_add_ad_hoc: true });
  const sender = new TestUploader(server, origin, fx.sender.headers);
  const { slabbed, all: files } = everyKindOfFile();
  const pkg = await sender.createOf(files, {
    contract: fx.contract.slug,
    name: options.name,
    recipients: [
      { id: fx.receiver.user.id },
      ...(options.partner ? [{ email: options.partner, mobile: null }] : []),
    ],
  });
  await sender.send(files, { pkg }, { slabbed });
  const created = await caller(server)(fx.receiver).post('/api/api_keys/', { name: 'ingest' });
  expect(created.statusCode, created.body).toBe(201);
  return { fx, slug: pkg.slug, files: files as TestFile[], apiKey: created.json().key as string };
}
