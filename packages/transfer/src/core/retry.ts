// The retry loop and its policies (the API's, read off each route, and the storage requests')
// live with the route client in the protocol, so every caller retries by the same rules.
export {
  backoffDelays,
  FILE_RETRIES,
  requestWithRetries,
  storageRetryPolicy,
  type AttemptOutcome,
  type RetryingOptions,
  type RetryPolicy,
} from '@filerunner/protocol';
