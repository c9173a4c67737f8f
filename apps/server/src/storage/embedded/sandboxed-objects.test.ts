import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../../../test/harness';
import { expectSandboxed, expectSandboxedAttachment } from '../../../test/sandboxed-bytes';

// The embedded store shares the app's origin, so whatever a grant's holder stored, and whatever
// words they add to a signed link (`inline`, `filename`), it must come back as a sandboxed
// attachment no browser renders. Real Swift honours `inline` (the conformance suite leaves it
// out): there the storage host is another origin than the app.

let server: TestServer;
useTestServer((t) => ({ server } = t));

const CONTAINER = 'sandboxed';
const HTML = '<!doctype html><script>parent.document.title = "ran"</script>';

/** The path and query of a signed URL for `key`, as inject takes it. */
function signed(method: 'GET' | 'PUT', key: string): string {
  const { url } = server.ctx.storage.signTempUrl({
    method,
    container: CONTAINER,
    key,
    expires: Math.floor(Date.now() / 1000) + 600,
  });
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
}

async function storeHtml(key: string) {
  await server.ctx.storage.ensureContainer(CONTAINER);
  const put = await server.app.inject({
    method: 'PUT',
    url: signed('PUT', key),
    payload: HTML,
    headers: { 'content-type': 'text/html' },
  });
  expect(put.statusCode).toBe(201);
  expectSandboxed(put.headers);
}

describe('objects of the embedded store', () => {
  it('are sandboxed attachments whatever their stored type and the query', async () => {
    await storeHtml('page.html');
    for (const method of ['GET', 'HEAD'] as const) {
      const inline = await server.app.inject({
        method,
        url: `${signed('GET', 'page.html')}&inline&filename=index.html`,
      });
      expect(inline.statusCode).toBe(200);
      expectSandboxedAttachment(inline.headers);
      // `filename` still names the attachment, as downloads named with it expect.
      expect(inline.headers['content-disposition']).toBe(
        `attachment; filename="index.html"; filename*=UTF-8''index.html`,
      );
      if (method === 'GET') expect(inline.body).toBe(HTML);
    }
    const plain = await server.app.inject({ method: 'GET', url: signed('GET', 'page.html') });
    expectSandboxedAttachment(plain.headers);
    expect(plain.headers['content-disposition']).toContain('filename="page.html"');
    const ranged = await server.app.inject({
      method: 'GET',
      url: `${signed('GET', 'page.html')}&inline`,
      headers: { range: 'bytes=0-9' },
    });
    expect(ranged.statusCode).toBe(206);
    expectSandboxedAttachment(ranged.headers);
  });

  it('are sandboxed in every answer that carries no object too', async () => {
    await storeHtml('error-cases.html');
    const account = new URL(server.ctx.storage.accountUrl).pathname;
    const answers = {
      'a bad signature': {
        url: `${account}/${CONTAINER}/error-cases.html?temp_url_sig=x&temp_url_expires=9999999999&inline`,
      },
      'an absent object': { url: `${signed('GET', 'absent.html')}&inline` },
      'an unsatisfiable range': {
        url: signed('GET', 'error-cases.html'),
        headers: { range: 'bytes=999999-' },
      },
      'a path the store refuses': { url: `${account}/${CONTAINER}/%zz` },
      'a container listing': { url: `${account}/${CONTAINER}` },
    };
    for (const [what, request] of Object.entries(answers)) {
      const answer = await server.app.inject({ method: 'GET', ...request });
      expect(answer.statusCode, what).toBeGreaterThanOrEqual(400);
      expectSandboxed(answer.headers);
      expect(answer.headers['content-type'], what).not.toMatch(/html/);
    }
  });
});
