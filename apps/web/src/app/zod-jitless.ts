import { config } from 'zod';

// The page's Content-Security-Policy forbids eval, and zod probes for it (`new Function`) when it
// builds its first object schema to compile faster parsers; the browser reports each probe as a
// CSP violation in the console. The page parses little (realtime messages), so zod's plain
// parsers serve. Every import of zod in the web app's bundles resolves to this module
// (build/browser-protocol.ts), so the setting is in force before any module builds a schema.
config({ jitless: true });

export * from 'zod';
