// The transfer planner's platform-neutral core. Code that needs the browser or Node (files,
// streams, fetch) belongs beside it in src/browser/ and src/node/, each its own entry.
export * from './core/upload-limits';
export * from './core/tar/tar-layout';
export * from './core/upload/plan';
export * from './core/upload/exclusions';
export * from './core/upload/grants';
export * from './core/upload/segments';
export * from './core/upload/slabs';
export * from './core/ports';
export * from './core/retry';
export * from './core/meters';
export * from './core/upload/events';
export * from './core/upload/ledger';
export * from './core/upload/abort-policy';
export * from './core/upload/package-api';
export * from './core/upload/jobs';
export * from './core/upload/queue';
export * from './core/upload/runner';
export * from './core/download/ports';
export * from './core/download/options';
export * from './core/download/events';
export * from './core/download/ledger';
export * from './core/download/plan';
export * from './core/download/ranges';
export * from './core/download/external-urls';
export * from './core/download/runner';
export * from './core/download/receipt';
