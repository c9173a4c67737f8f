// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { api, inboxMessages, type ExternalPackage } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering } from '../../app/test-support/api-store';
import { ExternalPackageRoute } from './ExternalPackageRoute';

afterEach(cleanup);

const now = Math.floor(Date.now() / 1000);
const pkg: ExternalPackage = {
  name: 'Grade for review',
  slug: 'pkg-1',
  sender: { name: 'Sam Sender' },
  contract: { name: 'Demo Contract' },
  message: 'Second pass.',
  date_sent: now - 3600,
  valid_date: now - 3600,
  expires_date: now + 5 * 3600 + 600,
  expired: false,
  expires_soon: true,
  locked: true,
  pin_verified: true,
  download_url: '/packages/external/pkg-1/download/',
  invalid_filenames: false,
  bytes: 1234,
  num_files: 1,
  mobile_hint: '123',
  files: [],
  total_files: 1,
  page: 1,
  page_size: 100,
  has_more: false,
};

/** The page at `url` over a store whose package call answers `answer` (a throw refuses it). */
function openAt(url: string, answer: () => unknown, grant?: () => unknown) {
  const { store, calls } = storeAnswering((route) => {
    if (grant && route === api.inbox.externalPackageGrant) return grant();
    if (route !== api.inbox.externalFiles) throw new Error(`unexpected call ${route.path}`);
    return answer();
  });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/inbox/external/:slug?" element={<ExternalPackageRoute />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return calls;
}

const refused = (status: number, body: unknown) => () => {
  throw new ApiError('HTTP_ERROR', status, body, `GET ${status}`);
};
const button = (name: string) => screen.getByRole('button', { name }) as HTMLButtonElement;

describe('the external package page', () => {
  it('asks nothing without a key, and says the package cannot be found', async () => {
    const calls = openAt('/inbox/external/pkg-1', () => pkg);
    await screen.findByText(inboxMessages.notFound);
    expect(calls).toHaveLength(0);
  });

  it('says the package cannot be found when the server does not know the key', async () => {
    openAt('/inbox/external/pkg-1?key=k', refused(404, { detail: inboxMessages.notFound }));
    await screen.findByText(inboxMessages.notFound);
  });

  it("gives the server's reason under 'not available'", async () => {
    openAt(
      '/inbox/external/pkg-1?key=k',
      refused(403, { detail: 'The sender has removed your access.' }),
    );
    await screen.findByText(inboxMessages.notAvailable);
    expect(screen.getByText('The sender has removed your access.')).toBeTruthy();
  });

  it('shows a locked package with its details, downloads off until the PIN', async () => {
    const calls = openAt('/inbox/external/pkg-1?key=k-1', () => pkg);
    await screen.findByRole('heading', { name: 'Grade for review' });
    expect(calls[0]!.args).toEqual({
      params: { slug: 'pkg-1' },
      query: { page: 1, key: 'k-1' },
    });
    expect(screen.getByText('From Sam Sender')).toBeTruthy();
    expect(screen.getByText('Project Demo Contract')).toBeTruthy();
    expect(screen.getByText('Expiring')).toBeTruthy();
    expect(screen.getByText('(Expires in 5 hours)')).toBeTruthy();
    expect(screen.getByText(inboxMessages.locked)).toBeTruthy();
    expect(button('Download All').disabled).toBe(true);
    expect(button('Unlock with PIN').disabled).toBe(false);
  });

  it('lists the files of an open package, each with its download; expired turns all off', async () => {
    const open = {
      ...pkg,
      locked: false,
      invalid_filenames: true,
      files: [{ user_path: 'Grade/notes.txt', size: 1234, object: 'notes_ab12.txt' }],
    };
    openAt('/inbox/external/pkg-1?key=k-1', () => open);
    await screen.findByText('Grade/notes.txt');
    expect(button('Download Grade/notes.txt').disabled).toBe(false);
    expect(button('Download All').disabled).toBe(false);
    expect(button('PIN verified').disabled).toBe(true);
    expect(screen.getByText(/downloads as one \.tar file/)).toBeTruthy();
    cleanup();

    openAt('/inbox/external/pkg-1?key=k-1', () => ({ ...open, expired: true }));
    await screen.findByText(inboxMessages.expired);
    expect(button('Download All').disabled).toBe(true);
    expect(button('Download Grade/notes.txt').disabled).toBe(true);
    expect(screen.getByText('Expired')).toBeTruthy();
  });

  it('shows the download queue once Download All is pressed, with the grant asked by the key', async () => {
    const open = { ...pkg, locked: false };
    const grant = {
      filename: 'Grade for review.tar',
      download_url: '/api/downloads/t/Grade for review.tar',
      size: 3072,
      num_files: 1,
      mtime: now,
      files: [{ path: 'Grade/notes.txt', size: 1234, xxh128: null }],
    };
    const calls = openAt(
      '/inbox/external/pkg-1?key=k-1',
      () => open,
      () => grant,
    );
    await screen.findByText('Grade for review');
    expect(screen.queryByRole('complementary', { name: 'Transfers' })).toBeNull();
    fireEvent.click(button('Download All'));
    const panel = await screen.findByRole('complementary', { name: 'Transfers' });
    // The browser's own download: handed over at once, so the queue is done.
    await within(panel).findByRole('button', { name: 'Download queue: 1 download, 100%' });
    const asked = calls.find((call) => call.route === api.inbox.externalPackageGrant);
    expect(asked?.args).toEqual({ params: { slug: 'pkg-1' }, query: { key: 'k-1' } });
  });
});
