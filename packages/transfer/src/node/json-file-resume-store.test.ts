import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { JsonFileResumeStore } from './json-file-resume-store';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

describe('JsonFileResumeStore', () => {
  it('keeps ledgers by key in one JSON file, written whole every time', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'fr-ledgers-'));
    dirs.push(dir);
    const file = path.join(dir, 'state', 'uploads.json');
    const store = new JsonFileResumeStore<{ n: number }>(file);
    expect(await store.get('a')).toBeUndefined();
    await Promise.all(Array.from({ length: 20 }, (_, n) => store.put(`p${n}`, { n })));
    await store.put('p3', { n: 33 });
    await store.delete('p4');

    // Another store on the same file (a later run of the CLI) reads the same.
    const later = new JsonFileResumeStore<{ n: number }>(file);
    expect((await later.keys()).sort()).toEqual(
      Array.from({ length: 20 }, (_, n) => `p${n}`)
        .filter((k) => k !== 'p4')
        .sort(),
    );
    expect(await later.get('p3')).toEqual({ n: 33 });
    expect(JSON.parse(await readFile(file, 'utf8')).p19).toEqual({ n: 19 });
    // No temporary file is left beside it.
    expect(await readdir(path.dirname(file))).toEqual(['uploads.json']);
  });
});
