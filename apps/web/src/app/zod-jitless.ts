import { config } from 'zod';

// The page's Content-Security-Policy forbids eval, and zod probes for it (`new Function`) when it
// builds its first object schema to compile faster parsers; the browser reports each probe as a
// CSP violation in the console. The page parses little (realtime messages), so zod's plain
// parsers serve. Imported by main.tsx, and built into zod's own chunk (vite.config.ts), so it
// runs before any chunk builds a schema of the route table.
config({ jitless: true });
