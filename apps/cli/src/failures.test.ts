import { describe, expect, it } from 'vitest';
import { ApiError } from '@filerunner/protocol';
import { failureOfCall, serverMessage } from './failures';

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
