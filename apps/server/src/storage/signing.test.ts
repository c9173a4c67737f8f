import { describe, expect, it } from 'vitest';
import { signFormPostGrant, signTempUrlGrant } from './grants';
import { formPostMessage, parseSignature, sign, tempUrlMessage, verifySignature } from './signing';

// Expected values computed with Swift 2.30's swift.common.digest.get_hmac and
// python-swiftclient 4.1's generate_temp_url, so these hold without either installed.
const KEY = 'mykey';
const EXPIRES = 1_700_000_000;

describe('Swift signatures', () => {
  const message = tempUrlMessage('GET', EXPIRES, '/v1/AUTH_test/c/o');

  it('signs TempURLs exactly as Swift does', () => {
    expect(sign(KEY, message, 'sha1')).toBe('3994d403a1e371c61672cc49d49e3504805f4887');
    expect(sign(KEY, message, 'sha256')).toBe(
      '7d8e44a645aab88cf197df39a844fc98555dad169375805007f6e9b55a5c9370',
    );
    expect(sign(KEY, message, 'sha512')).toBe(
      'sha512:HMKjP-WxpBiTUiQeNX60E3hSrPe529erBIA_rTrKvSyMR_8w9GeS7Y_w3aDzmQzIv_z0F5HBgKnxPnLPLULrNA',
    );
  });

  it('signs decoded non-ASCII paths and prefix grants like swiftclient', () => {
    const put = signTempUrlGrant(
      { accountUrl: 'http://s/v1/AUTH_test', alternativeAccountUrls: [], tempUrlKey: KEY },
      { method: 'PUT', container: 'c', key: 'dir/é x', expires: EXPIRES },
    );
    expect(put.signature).toBe('a64d956f174214060feade5699322c725d28e82ec80f741f970685161838f5d1');
    expect(put.url).toBe(
      `http://s/v1/AUTH_test/c/dir/%C3%A9%20x?temp_url_sig=${put.signature}&temp_url_expires=${EXPIRES}`,
    );
    const prefix = signTempUrlGrant(
      {
        accountUrl: 'http://s/v1/AUTH_test',
        alternativeAccountUrls: ['http://t/v1/AUTH_test'],
        tempUrlKey: KEY,
      },
      { method: 'GET', container: 'c', key: 'pre/', prefixScope: true, expires: EXPIRES },
    );
    expect(prefix.signature).toBe(
      '25856d13014a3268fa7811d1fbbbb9eaa868c9bd57df6d36f552f7c243348bd2',
    );
    expect(prefix.query).toContain('temp_url_prefix=pre%2F');
    expect(prefix.alternativeUrls[0]).toMatch(/^http:\/\/t\/v1\/AUTH_test\/c\/pre\/\?/);
  });

  it('signs FormPost grants as Swift checks them', () => {
    expect(
      sign(
        KEY,
        formPostMessage('/v1/AUTH_test/c/upl/', 'https://app/x', '1000', '10', String(EXPIRES)),
      ),
    ).toBe('961c3ebb09fc0402a34ba0115ad53819dfac3c01abd9b2567454f12b1e0f0f3c');
    const grant = signFormPostGrant(
      { accountUrl: 'http://s/v1/AUTH_test', alternativeAccountUrls: [], tempUrlKey: KEY },
      {
        container: 'c',
        keyPrefix: 'upl/',
        redirect: 'https://app/x',
        maxFileSize: 1000,
        maxFileCount: 10,
        expires: EXPIRES,
      },
    );
    expect(grant.signature).toBe(
      '961c3ebb09fc0402a34ba0115ad53819dfac3c01abd9b2567454f12b1e0f0f3c',
    );
    expect(Object.keys(grant.fields)).toEqual([
      'redirect',
      'max_file_size',
      'max_file_count',
      'expires',
      'signature',
    ]);
    expect(grant.url).toBe('http://s/v1/AUTH_test/c/upl/');
  });

  it('reads every signature form Swift accepts, and nothing else', () => {
    const hex256 = sign(KEY, message, 'sha256');
    const raw = Buffer.from(hex256, 'hex');
    for (const form of [
      hex256,
      hex256.toUpperCase(),
      `sha256:${raw.toString('base64')}`,
      `sha256:${raw.toString('base64url')}`,
      `sha256:${raw.toString('base64').replace(/=+$/, '')}`,
    ]) {
      expect(parseSignature(form), form).toEqual({ digest: 'sha256', bytes: raw });
      expect(verifySignature(form, message, ['other', KEY]), form).toBe(true);
    }
    for (const bad of [
      '',
      'abc',
      hex256.slice(1),
      `md5:${raw.toString('base64')}`,
      `sha1:${raw.toString('base64')}`,
      `sha256:${raw.toString('base64').slice(4)}`,
      'zz'.repeat(32),
    ]) {
      expect(parseSignature(bad), bad).toBeNull();
    }
    expect(verifySignature(hex256, message, ['other'])).toBe(false);
    expect(verifySignature(sign(KEY, message, 'sha1'), message, [KEY], ['sha256'])).toBe(false);
  });
});
