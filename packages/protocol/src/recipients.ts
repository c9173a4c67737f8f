import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam } from './api/fields';

/**
 * Someone a sender may send to, named as the contract knows them; `mobile` is the contract's
 * default PIN mobile for them, and verified means they are active in the contract (an activated
 * account, signed in since the contract added them).
 */
export const recipientUser = z.object({
  id: z.number(),
  name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  verified: z.boolean(),
});
export type RecipientUser = z.infer<typeof recipientUser>;

/** A group of recipients as the sender sees it (the master group first, then their groups). */
export const recipientGroup = z.object({
  name: z.string(),
  master_group: z.boolean(),
  verified_group: z.boolean(),
  members: z.array(recipientUser),
});
export type RecipientGroup = z.infer<typeof recipientGroup>;

export const recipientRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/contracts/:slug/recipients/',
    summary: 'Whom the caller may send to in the contract, by group (any member)',
    auth: 'user',
    params: z.object({ slug: slugParam }),
    status: 200,
    response: z.array(recipientGroup),
  }),
};
