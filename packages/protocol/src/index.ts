export * from './accounts';
export * from './filesystem';
export * from './limits';
export * from './messages';
export * from './password';
export * from './phone';
export * from './contracts';
export * from './packages';
