import { expect, it } from 'vitest';
import type { FormPostGrant } from '../storage-driver';
import {
  getBytes,
  inSeconds,
  randomBody,
  signedUrl,
  uniqueKey,
  type ConformanceContext,
} from './conformance-harness';

interface FormFile {
  readonly name: string;
  readonly bytes: Buffer;
}

/** A browser-like form: the grant's fields first, then the files (what Swift requires). */
async function postForm(grant: FormPostGrant, files: readonly FormFile[]): Promise<Response> {
  const form = new FormData();
  for (const [name, value] of Object.entries(grant.fields)) form.append(name, value);
  files.forEach((file, index) =>
    form.append(`file${index + 1}`, new Blob([file.bytes]), file.name),
  );
  return fetch(grant.url, { method: 'POST', body: form, redirect: 'manual' });
}

function grantFor(
  context: ConformanceContext,
  keyPrefix: string,
  limits: { maxFileSize?: number; maxFileCount?: number; redirect?: string; ttl?: number } = {},
): FormPostGrant {
  return context.driver.signFormPost({
    container: context.container,
    keyPrefix,
    maxFileSize: limits.maxFileSize ?? 1_000_000,
    maxFileCount: limits.maxFileCount ?? 10,
    expires: inSeconds(limits.ttl ?? 600),
    ...(limits.redirect !== undefined ? { redirect: limits.redirect } : {}),
  });
}

async function stored(context: ConformanceContext, key: string): Promise<Buffer | null> {
  const { response, bytes } = await getBytes(signedUrl(context, 'GET', key));
  return response.status === 200 ? bytes : null;
}

/** FormPost: several files per request, limits, redirect, refused signatures. */
export function formPostCases(context: () => ConformanceContext): void {
  it('stores several files of one FormPost under the signed prefix', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('formpost/batch')}/`;
    const files = [
      { name: 'a.txt', bytes: randomBody(1000) },
      { name: 'dir/b.bin', bytes: randomBody(200_000) },
      { name: 'c d é.txt', bytes: randomBody(1) },
    ];
    const response = await postForm(grantFor(ctx, prefix), files);
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('201 Created');
    for (const file of files) {
      expect((await stored(ctx, prefix + file.name))?.equals(file.bytes), file.name).toBe(true);
    }
  });

  it('redirects with the status when the form asks for it', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('formpost/redirect')}/`;
    const grant = grantFor(ctx, prefix, { redirect: 'https://app.example/done?batch=1' });
    const response = await postForm(grant, [{ name: 'x', bytes: randomBody(10) }]);
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      'https://app.example/done?batch=1&status=201&message=',
    );
    expect(await stored(ctx, `${prefix}x`)).not.toBeNull();
  });

  it('refuses files beyond max_file_count (those before it stay stored)', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('formpost/count')}/`;
    const files = [1, 2, 3].map((n) => ({ name: `f${n}`, bytes: randomBody(100) }));
    const response = await postForm(grantFor(ctx, prefix, { maxFileCount: 2 }), files);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('Max File Count Exceeded');
    expect(await stored(ctx, `${prefix}f1`)).not.toBeNull();
    expect(await stored(ctx, `${prefix}f2`)).not.toBeNull();
    expect(await stored(ctx, `${prefix}f3`)).toBeNull();
  });

  it('refuses a file over max_file_size and does not store it', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('formpost/size')}/`;
    const files = [
      { name: 'small', bytes: randomBody(500) },
      { name: 'big', bytes: randomBody(5000) },
    ];
    const response = await postForm(grantFor(ctx, prefix, { maxFileSize: 1000 }), files);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('max_file_size exceeded');
    expect(await stored(ctx, `${prefix}small`)).not.toBeNull();
    expect(await stored(ctx, `${prefix}big`)).toBeNull();
  });

  it('refuses an expired or tampered form with 401', async () => {
    const ctx = context();
    const prefix = `${uniqueKey('formpost/refused')}/`;
    const file = [{ name: 'f', bytes: randomBody(10) }];
    const expired = await postForm(grantFor(ctx, prefix, { ttl: -5 }), file);
    expect(expired.status).toBe(401);
    expect(await expired.text()).toContain('Form Expired');

    const grant = grantFor(ctx, prefix, { maxFileSize: 100 });
    const widened = { ...grant, fields: { ...grant.fields, max_file_size: '100000' } };
    const tampered = await postForm(widened, file);
    expect(tampered.status).toBe(401);
    expect(await tampered.text()).toContain('Invalid Signature');

    const elsewhere = { ...grant, url: grant.url.replace(/\/$/, '-elsewhere/') };
    expect((await postForm(elsewhere, file)).status).toBe(401);
    expect(await stored(ctx, `${prefix}f`)).toBeNull();
  });

  it('answers 400 to a form without files', async () => {
    const ctx = context();
    const response = await postForm(grantFor(ctx, `${uniqueKey('formpost/empty')}/`), []);
    expect(response.status).toBe(400);
    expect(await response.text()).toContain('No Files To Process');
  });
}
