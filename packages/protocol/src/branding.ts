import { z } from 'zod';
import { defineRoute } from './api/route';
import { slugParam, text } from './api/fields';
import { adminMessages } from './contracts';

export const brandingColours = [
  'purple',
  'orange',
  'yellow',
  'green',
  'aqua',
  'teal',
  'pink',
] as const;

export const brandingRequest = z.object({
  name: text()
    .trim()
    .min(1, adminMessages.required)
    .max(50, adminMessages.brandingNameLength)
    .optional(),
  alias: text()
    .trim()
    .regex(/^[A-Z]{2,3}$/, adminMessages.aliasLength)
    .optional(),
  colour: z.enum(brandingColours).optional(),
  /** A base64 image (optionally a data URL); null removes the logo. */
  logo: text().max(7_000_000, adminMessages.logoRejected).nullable().optional(),
});
/** What a branding save may change; any field left out keeps its saved value. */
export type BrandingChange = z.input<typeof brandingRequest>;

/** Initials of a name, the alias used when none is set: 2 or 3 capitals. */
export function aliasOf(name: string): string {
  const letters = name
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase())
    .filter((c) => /[A-Z]/.test(c));
  const alias = letters.slice(0, 3).join('');
  if (alias.length >= 2) return alias;
  return (name.replace(/[^A-Za-z]/g, '').toUpperCase() + 'XX').slice(0, 2);
}

export const branding = z.object({
  name: z.string(),
  slug: z.string(),
  alias: z.string(),
  colour: z.enum(brandingColours),
  /** A data URL of the 160 px JPEG, or null. */
  logo: z.string().nullable(),
});
export type Branding = z.infer<typeof branding>;

const projectParams = z.object({ contract: slugParam });

/**
 * The projects (branding) service: every member may read their contracts' brandings; only a
 * project admin may change one, and only where the operator has enabled custom branding.
 */
export const brandingRoutes = {
  list: defineRoute({
    method: 'GET',
    path: '/projects/',
    summary: "The saved brandings of the user's projects (none where branding is disabled)",
    auth: 'user',
    status: 200,
    response: z.array(branding),
  }),
  get: defineRoute({
    method: 'GET',
    path: '/projects/:contract/',
    summary: "A project's saved branding; 404 while none is saved or branding is disabled",
    auth: 'user',
    params: projectParams,
    status: 200,
    response: branding,
  }),
  update: defineRoute({
    method: 'PATCH',
    path: '/projects/:contract/',
    summary: "Change a project's name, alias, colour or logo (project admins)",
    auth: 'user',
    params: projectParams,
    body: brandingRequest,
    status: 200,
    response: branding,
    idempotent: true,
  }),
};
