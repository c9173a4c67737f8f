import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

describe('loadConfig', () => {
  it('runs on embedded defaults with an empty environment', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      publicUrl: 'http://localhost:8080',
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

  it('derives the public URL from the port when none is given', () => {
    expect(loadConfig({ PORT: '9090' }).publicUrl).toBe('http://localhost:9090');
  });

  it('names the bad variable', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL/);
    expect(() => loadConfig({ SEED_DEMO: 'maybe' })).toThrow(/SEED_DEMO/);
  });

  it('makes cookies Secure behind an https public URL', () => {
    expect(loadConfig({ PUBLIC_URL: 'https://files.example.com/' })).toMatchObject({
      publicUrl: 'https://files.example.com',
      secureCookies: true,
    });
  });
});
