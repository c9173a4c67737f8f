// What code outside the feature modules (the HTTP layer) takes from API keys.
export type { ApiKeyStore } from './apikeys.repository';
