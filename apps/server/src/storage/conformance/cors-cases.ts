import { expect, it } from 'vitest';
import {
  putObject,
  randomBody,
  signedUrl,
  uniqueKey,
  type ConformanceContext,
} from './conformance-harness';

function preflight(url: string, origin: string, method = 'PUT'): Promise<Response> {
  return fetch(url, {
    method: 'OPTIONS',
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'content-type',
    },
  });
}

/** CORS as the browser meets it: preflights for TempURL PUT and FormPost, exposed headers. */
export function corsCases(context: () => ConformanceContext): void {
  it('allows the preflight of a TempURL PUT from the configured origin only', async () => {
    const ctx = context();
    const url = signedUrl(ctx, 'PUT', uniqueKey('cors/put'));
    const allowed = await preflight(url, ctx.target.allowedOrigin);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get('access-control-allow-origin')).toBe(ctx.target.allowedOrigin);
    expect(allowed.headers.get('access-control-allow-methods')).toContain('PUT');
    expect(allowed.headers.get('access-control-allow-headers')).toContain('content-type');

    const refused = await preflight(url, ctx.foreignOrigin);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('allows the preflight of a FormPost from the configured origin', async () => {
    const ctx = context();
    const grant = ctx.driver.signFormPost({
      container: ctx.container,
      keyPrefix: `${uniqueKey('cors/form')}/`,
      maxFileSize: 10,
      maxFileCount: 1,
      expires: Math.floor(Date.now() / 1000) + 600,
    });
    expect((await preflight(grant.url, ctx.target.allowedOrigin, 'POST')).status).toBe(200);
    expect((await preflight(grant.url, ctx.foreignOrigin, 'POST')).status).toBe(401);
  });

  it('lets the allowed origin read etag, content-length and content-range', async () => {
    const ctx = context();
    const key = uniqueKey('cors/get');
    const put = await fetch(signedUrl(ctx, 'PUT', key), {
      method: 'PUT',
      body: randomBody(100),
      headers: { origin: ctx.target.allowedOrigin },
    });
    expect(put.status).toBe(201);
    expect(put.headers.get('access-control-allow-origin')).toBe(ctx.target.allowedOrigin);
    expect(put.headers.get('access-control-expose-headers')).toContain('etag');

    const get = await fetch(signedUrl(ctx, 'GET', key), {
      headers: { origin: ctx.target.allowedOrigin, range: 'bytes=0-9' },
    });
    await get.arrayBuffer();
    expect(get.status).toBe(206);
    expect(get.headers.get('access-control-allow-origin')).toBe(ctx.target.allowedOrigin);
    const exposed = (get.headers.get('access-control-expose-headers') ?? '').split(/,\s*/);
    for (const header of ['etag', 'content-length', 'content-range', 'accept-ranges']) {
      expect(exposed, header).toContain(header);
    }

    const foreign = await fetch(signedUrl(ctx, 'GET', key), {
      headers: { origin: ctx.foreignOrigin },
    });
    await foreign.arrayBuffer();
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('answers a preflight to a container that does not exist with 401', async () => {
    const ctx = context();
    const url = signedUrl(ctx, 'PUT', 'x').replace(
      `/${ctx.container}/`,
      `/${ctx.container}-missing/`,
    );
    expect((await preflight(url, ctx.target.allowedOrigin)).status).toBe(401);
    expect(
      (await putObject({ ...ctx, container: `${ctx.container}-missing` }, 'x', randomBody(1)))
        .status,
    ).toBe(404);
  });
}
