import { z } from 'zod';
import { defineRoute } from './api/route';

/** Where the product's help links ('Help', 'Need Help?', 'Launch Help Center') lead. */
export const helpSettings = z.object({
  /** The operator's help centre (the server's HELP_URL), or null: the help page in the product. */
  help_url: z.url().nullable(),
});
export type HelpSettings = z.infer<typeof helpSettings>;

export const helpRoutes = {
  settings: defineRoute({
    method: 'GET',
    path: '/help/',
    // Public: the error page offers help to people who are not signed in, or whose sign-in failed.
    summary: "Where the help links lead: the operator's help centre, or null for the product's own",
    auth: 'public',
    status: 200,
    response: helpSettings,
  }),
};
