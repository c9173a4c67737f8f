import { z } from 'zod';
import { defineRoute } from './api/route';
import { text } from './api/fields';
import { messages } from './messages';

export const createApiKeyRequest = z.object({
  name: text().trim().min(1, messages.apiKeys.nameRequired).max(100),
});

export const apiKey = z.object({
  uuid: z.string(),
  name: z.string(),
  created_timestamp: z.string(),
  revoked: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKey>;

/** `POST /api_keys/` answers with the key itself, shown once. */
export const createdApiKey = apiKey.extend({ key: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKey>;

/** The user's own API keys: scripts sign in with them instead of a session. */
export const apiKeyRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/api_keys/',
    summary: "The user's API keys, newest first (never the keys themselves)",
    auth: 'user',
    status: 200,
    response: z.array(apiKey),
  }),
  create: defineRoute({
    method: 'POST',
    path: '/api_keys/',
    summary: 'Create an API key (from a session; 403 with a key); the answer holds it, shown once',
    auth: 'user',
    body: createApiKeyRequest,
    status: 201,
    response: createdApiKey,
  }),
  revoke: defineRoute({
    method: 'POST',
    path: '/api_keys/:uuid/',
    summary: "Revoke one of the user's API keys; it is refused from then on",
    auth: 'user',
    // Not a uuid names no key, so it is "not found" like another user's key.
    params: z.object({ uuid: z.uuid() }),
    status: 200,
    response: apiKey,
    idempotent: true,
  }),
};
