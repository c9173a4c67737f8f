// The transfer planner's platform-neutral core. Code that needs the browser or Node (files,
// streams, fetch) belongs beside it in src/browser/ and src/node/, each its own entry.
export * from './core/upload-limits';
