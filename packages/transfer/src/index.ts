export * from './upload-limits';
