import { describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { adminMessages, messages } from '@filerunner/protocol';
import { contracts } from '../../db/schema';
import { useFixtureServer, type ContractFixture, type TestServer } from '../../../test/harness';
import { pngBomb } from '../../../test/png-bomb';
import { addMember, setBrandingEnabled } from '../contracts/contracts.service';
import { defaultColour, updateBranding } from './branding.service';

let server: TestServer;
let fx: ContractFixture;
useFixtureServer((t) => ({ server, fx } = t));

const patch = (payload: object, headers = fx.admin.headers) =>
  server.app.inject({
    method: 'PATCH',
    url: `/api/projects/${fx.contract.slug}/`,
    headers,
    payload,
  });
const get = (url: string, headers = fx.receiver.headers) =>
  server.app.inject({ method: 'GET', url, headers });

describe('custom branding', () => {
  it('is a 404 until set (the client reads that as an empty branding)', async () => {
    expect((await get(`/api/projects/${fx.contract.slug}/`)).statusCode).toBe(404);
    expect((await get('/api/projects/')).json()).toEqual([]);
  });

  it('defaults the alias to initials and the colour to the palette, and stores a logo as a 160 px JPEG', async () => {
    const named = await patch({ name: 'Northern Light Studios' });
    expect(named.json()).toMatchObject({
      name: 'Northern Light Studios',
      alias: 'NLS',
      colour: defaultColour(fx.contract.id),
      logo: null,
      slug: fx.contract.slug,
    });

    const wide = await sharp({
      create: { width: 900, height: 300, channels: 4, background: '#ff0000' },
    })
      .png()
      .toBuffer();
    const withLogo = await patch({
      logo: `data:image/png;base64,${wide.toString('base64')}`,
      colour: 'teal',
      alias: 'NL',
    });
    const body = withLogo.json();
    expect(body).toMatchObject({ alias: 'NL', colour: 'teal' });
    const jpeg = Buffer.from(body.logo.replace(/^data:image\/jpeg;base64,/, ''), 'base64');
    const meta = await sharp(jpeg).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 160, height: 160 });

    expect((await get(`/api/projects/${fx.contract.slug}/`)).json()).toEqual(body);
    expect((await get('/api/projects/')).json()).toEqual([body]);
    expect((await patch({ logo: null })).json().logo).toBeNull();
  });

  it("refuses a bad alias, a long name and a file that isn't an image, in the spec's words", async () => {
    expect((await patch({ alias: 'A' })).json()).toEqual({ alias: [adminMessages.aliasLength] });
    expect((await patch({ alias: 'abc' })).json()).toEqual({ alias: [adminMessages.aliasLength] });
    expect((await patch({ name: 'x'.repeat(51) })).json()).toEqual({
      name: [adminMessages.brandingNameLength],
    });
    expect((await patch({ colour: 'black' })).statusCode).toBe(400);
    const text = Buffer.from('just some text, not an image').toString('base64');
    expect((await patch({ logo: text })).json()).toEqual({ logo: [adminMessages.logoRejected] });
    // A PNG bomb (625 million pixels in 600 kB) is refused from its header, never decoded.
    const bomb = `data:image/png;base64,${pngBomb().toString('base64')}`;
    expect((await patch({ logo: bomb })).json()).toEqual({ logo: [adminMessages.logoRejected] });
    const huge = Buffer.alloc(5_100_000, 1).toString('base64');
    const tooBig = await patch({ logo: huge });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toEqual({ logo: [adminMessages.logoRejected] });
  });
});

describe('custom branding switched off by the operator', () => {
  it('hides the saved branding: 404 for the contract, left out of the list, kept for later', async () => {
    const saved = (await patch({ name: 'Kept Branding' })).json();
    const [other] = await server.ctx.db
      .insert(contracts)
      .values({ name: 'Other Works', slug: `other-${fx.contract.id}` })
      .returning();
    await addMember(server.ctx, other!.id, fx.receiver.user.id, {});
    const otherBranding = await updateBranding(server.ctx, other!, { name: 'Other Works' });
    expect((await get('/api/projects/')).json()).toEqual(
      expect.arrayContaining([saved, otherBranding]),
    );

    expect(await setBrandingEnabled(server.ctx, fx.contract.slug, false)).toBe(true);
    expect((await get(`/api/projects/${fx.contract.slug}/`)).statusCode).toBe(404);
    expect((await get(`/api/projects/${fx.contract.slug}/`, fx.admin.headers)).statusCode).toBe(
      404,
    );
    expect((await get('/api/projects/')).json()).toEqual([otherBranding]);
    const listed = (await get('/api/contracts/')).json();
    expect(listed.find((c: { slug: string }) => c.slug === fx.contract.slug)).toMatchObject({
      branding_enabled: false,
    });

    expect(await setBrandingEnabled(server.ctx, fx.contract.slug, true)).toBe(true);
    expect((await get(`/api/projects/${fx.contract.slug}/`)).json()).toEqual(saved);
    expect(await setBrandingEnabled(server.ctx, 'no-such-contract', false)).toBe(false);
  });

  it("refuses the admin's PATCH with 403 before reading the body; others keep their answers", async () => {
    await setBrandingEnabled(server.ctx, fx.contract.slug, false);
    try {
      const refused = await patch({ name: 'Not Allowed' });
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ detail: adminMessages.brandingNotEnabled });
      expect((await patch({ alias: 'A' })).json()).toEqual({
        detail: adminMessages.brandingNotEnabled,
      });
      const sender = await patch({ name: 'Sender' }, fx.sender.headers);
      expect(sender.statusCode).toBe(403);
      expect(sender.json()).toEqual({ detail: messages.auth.forbidden });
      expect((await patch({ name: 'Outsider' }, fx.outsider.headers)).statusCode).toBe(404);
    } finally {
      await setBrandingEnabled(server.ctx, fx.contract.slug, true);
    }
    expect((await patch({ name: 'Allowed Again' })).statusCode).toBe(200);
  });
});
