import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { adminMessages } from '@filerunner/protocol';
import { contractFixture, startTestServer, type TestServer } from '../../../test/harness';
import { defaultColour } from './branding.service';

let server: TestServer;
let fx: Awaited<ReturnType<typeof contractFixture>>;
beforeAll(async () => {
  server = await startTestServer();
  fx = await contractFixture(server);
});
afterAll(() => server.close());

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
    const huge = Buffer.alloc(5_100_000, 1).toString('base64');
    const tooBig = await patch({ logo: huge });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json()).toEqual({ logo: [adminMessages.logoRejected] });
  });
});
