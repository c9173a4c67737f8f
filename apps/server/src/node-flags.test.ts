import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from './node-flags';

const read = (relative: string) => readFile(new URL(relative, import.meta.url), 'utf8');

// The shell and npm scripts cannot import the list, so they repeat it; this keeps them in step.
describe('the server is started with its Node.js flags', () => {
  it('by npm start and npm run dev', async () => {
    const { scripts } = JSON.parse(await read('../package.json')) as {
      scripts: Record<string, string>;
    };
    for (const script of [scripts.start!, scripts.dev!]) {
      for (const flag of SERVER_NODE_FLAGS) expect(script).toContain(`node ${flag} `);
    }
  });

  it('by the cluster script, on every node', async () => {
    const script = await read('../../../scripts/cluster.sh');
    const starts = script.split('\n').filter((line) => /\bnode .*src\/main\.ts/.test(line));
    expect(starts.length).toBeGreaterThan(0);
    for (const line of starts) {
      for (const flag of SERVER_NODE_FLAGS) expect(line).toContain(flag);
    }
  });
});
