import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../test-support/manual-clock';
import { Gate, ScriptedHttp } from '../test-support/scripted-http';
import { checkDownloadUrls } from './external-urls';

const clients: ScriptedHttp[] = [];
afterEach(() => {
  for (const http of clients.splice(0)) http.verify();
});

describe('checkDownloadUrls', () => {
  it('keeps the http(s) addresses that answer their HEAD with 2xx', async () => {
    const clock = new ManualClock();
    // The 5 s wait runs on this clock: held, it cannot end before the answers.
    clock.holdSleeps();
    const http = new ScriptedHttp({ clock });
    clients.push(http);
    http.on('HEAD', 'https://a.test/pkg.tar').reply({ status: 200 });
    http.on('HEAD', 'https://b.test/pkg.tar').reply({ status: 404 });
    http.on('HEAD', 'http://c.test/pkg.tar').reply({ networkError: 'refused' });
    http.on('HEAD', 'https://d.test/pkg.tar').reply({ status: 204 });
    const valid = await checkDownloadUrls(
      [
        'https://a.test/pkg.tar',
        'ftp://files.test/pkg.tar',
        'https://b.test/pkg.tar',
        'javascript:alert(1)',
        'http://c.test/pkg.tar',
        'https://d.test/pkg.tar',
        'not a url',
      ],
      http,
      clock,
    );
    expect(valid).toEqual(['https://a.test/pkg.tar', 'https://d.test/pkg.tar']);
    expect(http.requests.map((r) => r.url)).not.toContain('ftp://files.test/pkg.tar');
  });

  it('says "No valid URLs" when none answers within 5 s', async () => {
    const clock = new ManualClock();
    clock.holdSleeps();
    const http = new ScriptedHttp({ clock });
    clients.push(http);
    const silent = new Gate();
    http.on('HEAD', 'https://slow.test/pkg.tar').reply(silent);
    const checking = checkDownloadUrls(
      ['https://slow.test/pkg.tar', 'file:///etc/passwd'],
      http,
      clock,
    );
    await silent.arrived;
    clock.advance(5000);
    await expect(checking).rejects.toThrow('No valid URLs');
    await expect(checkDownloadUrls([], http, clock)).rejects.toThrow('No valid URLs');
  });
});
