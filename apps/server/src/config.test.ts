import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
      publicUrlSet: false,
      databaseUrl: undefined,
      seedDemo: true,
      secureCookies: false,
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('reads which proxies to trust for client addresses', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '127.0.0.1',
    ]);
  });

  it('caps sessions at seven days from login unless told otherwise', () => {
    expect(loadConfig({}).sessionMaxAgeSeconds).toBe(604800);
    expect(loadConfig({ SESSION_MAX_AGE_SECONDS: '3600' }).sessionMaxAgeSeconds).toBe(3600);
    expect(() => loadConfig({ SESSION_MAX_AGE_SECONDS: '10' })).toThrow(/SESSION_MAX_AGE_SECONDS/);
  });

  it("sends help to the product's own page unless HELP_URL names a help centre", () => {
    expect(loadConfig({}).helpUrl).toBeNull();
    expect(loadConfig({ HELP_URL: 'https://help.example.com/filerunner' }).helpUrl).toBe(
      'https://help.example.com/filerunner',
    );
    expect(() => loadConfig({ HELP_URL: 'help centre' })).toThrow(/HELP_URL/);
  });

  it('generates the demo password when DEMO_PASSWORD is empty, as when it is unset', () => {
    expect(loadConfig({ DEMO_PASSWORD: '' }).demoPassword).toBeUndefined();
    expect(loadConfig({ DEMO_PASSWORD: 'Chosen-Pass-42' }).demoPassword).toBe('Chosen-Pass-42');
  });

  it('derives the public URL from the port when none is given', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  });

  it('captures text messages unless SMS_URL names a service, which needs its account', () => {
    expect(loadConfig({}).sms).toBeNull();
    const service = {
      SMS_URL: 'https://api.twilio.com/',
      SMS_ACCOUNT_SID: 'AC1',
      SMS_AUTH_TOKEN: 'token',
      SMS_FROM: '+15005550006',
    };
    expect(loadConfig(service).sms).toEqual({
      url: 'https://api.twilio.com',
      accountSid: 'AC1',
      authToken: 'token',
      from: '+15005550006',
    });
    expect(() => loadConfig({ ...service, SMS_FROM: undefined })).toThrow(/SMS_URL needs SMS_FROM/);
    expect(() => loadConfig({ ...service, SMS_URL: 'not a url' })).toThrow(/SMS_URL/);
    expect(() => loadConfig({ SMS_AUTH_TOKEN: 'token' })).toThrow(
      /SMS_AUTH_TOKEN set without SMS_URL/,
    );
  });

  it('makes cookies Secure behind an https public URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' })).toMatchObject({
      publicUrl: 'https://files.example.com',
      publicUrlSet: true,
      secureCookies: true,
    });
  });
  it('injects no storage faults unless STORE_FAULTS asks, and never in production', () => {
    const storage = (env: NodeJS.ProcessEnv) => loadConfig(env).storage;
    expect(storage({})).toMatchObject({ driver: 'embedded', faults: null });
    expect(storage({ STORE_FAULTS: 'off' })).toMatchObject({ faults: null });
    expect(storage({ STORE_FAULTS: 'fail=0.3, drop=0.05,delay=200' })).toMatchObject({
      faults: { fail: 0.3, drop: 0.05, delayMs: 200 },
    });
    expect(storage({ STORE_FAULTS: 'stall=0.1' })).toMatchObject({
      faults: { fail: 0, drop: 0, stall: 0.1, delayMs: 0 },
    });
    expect(storage({ STORE_FAULTS: 'fail=1,seed=7' })).toMatchObject({
      faults: { fail: 1, drop: 0, delayMs: 0, seed: 7 },
    });
    for (const bad of ['fail=1.5', 'fail', 'fail=', 'often=0.2', 'delay=-1', 'drop=half']) {
      expect(() => loadConfig({ STORE_FAULTS: bad }), bad).toThrow(/STORE_FAULTS/);
    }
    expect(() => loadConfig({ STORE_FAULTS: 'fail=0.3', NODE_ENV: 'production' })).toThrow(
      /STORE_FAULTS.*NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: 'production' }).storage).toMatchObject({ faults: null });
    const swift = {
      STORAGE_DRIVER: 'swift',
      SWIFT_AUTH_URL: 'http://127.0.0.1:8081/auth/v1.0',
      SWIFT_USER: 'test:tester',
      SWIFT_KEY: 'testing',
      SWIFT_TEMPURL_KEY: 'a-temp-url-key-of-16+',
    };
    expect(() => loadConfig({ ...swift, STORE_FAULTS: 'fail=0.3' })).toThrow(/STORE_FAULTS/);
  });
});
