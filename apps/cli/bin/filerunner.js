#!/usr/bin/env node
// The `filerunner` command. The sources are TypeScript run as they are (as the server runs with
// `node --import tsx`), so a fresh `npm ci` is all it takes: tsx is registered, then the entry runs.
import { register } from 'tsx/esm/api';

register();
await import('../src/main.ts');
