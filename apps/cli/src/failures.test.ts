import { describe, expect, it } from 'vitest';
import { ApiError } from '@filerunner/protocol';
import { failureOfCall, serverMessage, withoutSecrets } from './failures';

const url = 'https://files.example.com';

describe('failures of API calls', () => {
  it('reads the server’s detail and field errors', () => {
    expect(serverMessage({ detail: 'Not found.' })).toBe('Not found.');
    expect(serverMessage({ recipients: ['Not allowed.'], non_field_errors: ['Try again.'] })).toBe(
      'recipients: Not allowed.; Try again.',
    );
    expect(serverMessage('<html>')).toBeNull();
  });

  it('gives each kind its exit code and a message naming what was being done', () => {
    const of = (status: number, body?: unknown) =>
      failureOfCall(
        new ApiError(
          status === 0 ? 'NETWORK_ERROR' : 'HTTP_ERROR',
          status,
          body,
          'POST /packages/create/',
        ),
        'create the package',
        url,
      );
    expect(of(0)).toMatchObject({
      exitCode: 6,
      message: `Could not reach FileRunner at ${url} to create the package.`,
    });
    expect(of(401, { detail: 'Invalid API key.' })).toMatchObject({
      exitCode: 3,
      message: 'Authentication failed: Invalid API key.',
    });
    expect(of(400, { name: ['Please enter a name for the package'] })).toMatchObject({
      exitCode: 4,
      message:
        'The server refused to create the package (400): name: Please enter a name for the package',
    });
    expect(of(503)).toMatchObject({
      exitCode: 5,
      message: 'The server failed to create the package (503).',
    });
  });
});

describe('withoutSecrets', () => {
  it('hides download tokens, link keys and storage signatures, and keeps the rest readable', () => {
    const token = 'dl_3f9a8Q-xY_1234567890abcdef';
    expect(
      withoutSecrets(
        `The download could not start: HEAD https://files.example.com/api/downloads/${token}/Ep%20104.tar: network error.`,
      ),
    ).toBe(
      'The download could not start: HEAD https://files.example.com/api/downloads/…/Ep%20104.tar: network error.',
    );
    expect(
      withoutSecrets(
        'Not a link: https://files.example.com/inbox/external/ab12?key=s3cr3t&x=1 and ?temp_url_sig=abc',
      ),
    ).toBe(
      'Not a link: https://files.example.com/inbox/external/ab12?key=…&x=1 and ?temp_url_sig=…',
    );
    expect(withoutSecrets('at /api/downloads/tok')).toBe('at /api/downloads/…');
    const plain = 'The server refused to download (404): Not found.';
    expect(withoutSecrets(plain)).toBe(plain);
  });
});
