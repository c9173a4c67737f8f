import { describe, expect, it } from 'vitest';
import { sendOptionsOf, type RawSendOptions } from './send-options';

const given: RawSendOptions = {
  url: 'https://files.example.com/',
  apiKey: 'fr_key',
  contract: 'acme',
  to: ['editor@acme.example'],
  name: ' Ep 104 ',
  days: '10',
  resume: true,
};

describe('send options', () => {
  it('are checked and tidied', () => {
    expect(sendOptionsOf(['EP104'], given)).toEqual({
      serverUrl: 'https://files.example.com',
      apiKey: 'fr_key',
      contract: 'acme',
      to: ['editor@acme.example'],
      name: 'Ep 104',
      message: '',
      pin: false,
      days: 10,
      paths: ['EP104'],
      resume: true,
      quiet: false,
    });
  });

  it('say which option is missing or wrong, with exit code 2', () => {
    const problem = (change: Partial<RawSendOptions>, paths = ['EP104']) => {
      try {
        sendOptionsOf(paths, { ...given, ...change });
      } catch (error) {
        return {
          code: (error as { exitCode: number }).exitCode,
          message: (error as Error).message,
        };
      }
      return null;
    };
    expect(problem({ url: undefined })).toEqual({
      code: 2,
      message: 'The server is missing: give --url or set FILERUNNER_URL.',
    });
    expect(problem({ url: 'ftp://files.example.com' })?.message).toContain('https://');
    expect(problem({ apiKey: ' ' })?.message).toContain('FILERUNNER_API_KEY');
    expect(problem({ to: [] })?.message).toContain('Nobody to send to');
    expect(problem({ name: '' })?.message).toContain('--name');
    expect(problem({ days: '16' })?.message).toContain('at most 15');
    expect(problem({ days: 'soon' })?.message).toContain('--days');
    expect(problem({}, [])?.message).toContain('No files given');
  });
});
