// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@filerunner/protocol';
import { storageKeys } from '../../app/local-storage';
import { initialAuthState } from '../auth/auth-slice';
import { uploadsOnSilentNetwork } from '../transfers/test-support/silent-uploads';
import { TransferPanel } from '../transfers/TransferPanel';
import { UploadGuards } from '../transfers/UploadGuards';
import { LoggedOutDialog } from './LoggedOutDialog';

// The dialog and the upload guards with the real controller and engine over a network that
// never answers, and the session marker changed as another tab changes it: a `storage` event.

afterEach(cleanup);

const ann = { id: 7, email: 'ann@example.com', name: 'Ann' } as User;

/** Another tab stores `user` as the session marker, or removes it (null). */
function otherTabStores(user: User | null) {
  act(() => {
    window.dispatchEvent(
      new StorageEvent('storage', {
        key: storageKeys.user,
        newValue: user === null ? null : JSON.stringify(user),
        storageArea: window.localStorage,
      }),
    );
  });
}

function pageSignedInAsAnn() {
  const uploads = uploadsOnSilentNetwork({
    preloadedState: { auth: { ...initialAuthState, user: ann } },
  });
  render(
    <Provider store={uploads.store}>
      <TransferPanel />
      <UploadGuards />
      <LoggedOutDialog />
    </Provider>,
  );
  return uploads;
}

const dialog = () => screen.queryByRole('dialog', { name: "You've been logged out" });

describe('a sign-out in another tab', () => {
  it('pauses the uploads under way with the dialog; the same person back resumes them', async () => {
    const { store, send, status } = pageSignedInAsAnn();
    send('a');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));

    otherTabStores(null);
    await waitFor(() => expect(status('a')).toBe('PAUSED'));
    expect(store.getState().uploads.records.a!.pausedFor).toBe('session');
    const shown = within(dialog()!);
    expect(shown.getByText('Do not refresh this page')).toBeTruthy();
    // The page keeps its person and its upload, in view.
    expect(store.getState().auth.user).toEqual(ann);
    expect(store.getState().uploads.queue).toEqual(['a']);

    const opened: unknown[][] = [];
    const open = window.open;
    window.open = (...args: unknown[]) => {
      opened.push(args);
      return null;
    };
    fireEvent.click(shown.getByRole('button', { name: 'Go to login page' }));
    window.open = open;
    expect(opened).toEqual([['/login', '_blank', 'noopener']]);

    otherTabStores(ann);
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    await waitFor(() => expect(dialog()).toBeNull());
  });

  it('leaves an upload the person paused paused when they are back', async () => {
    const { send, status } = pageSignedInAsAnn();
    send('a');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(status('a')).toBe('PAUSED'));

    otherTabStores(null);
    await waitFor(() => expect(dialog()).not.toBeNull());
    otherTabStores(ann);
    await waitFor(() => expect(dialog()).toBeNull());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(status('a')).toBe('PAUSED');
  });

  it('signs this page out too when nothing is under way, with no dialog', async () => {
    const { store } = pageSignedInAsAnn();
    otherTabStores(null);
    expect(store.getState().auth).toMatchObject({ user: null, signedOut: true });
    expect(dialog()).toBeNull();
  });

  it('signs this page out when someone else signs in, and keeps the upload for its owner', async () => {
    const { store, send, status } = pageSignedInAsAnn();
    send('a');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    otherTabStores(null);
    await waitFor(() => expect(dialog()).not.toBeNull());

    otherTabStores({ ...ann, id: 8, email: 'bob@example.com' });
    expect(store.getState().auth.user).toBeNull();
    await waitFor(() => expect(dialog()).toBeNull());
    // Out of sight, still paused for the session: it goes on when Ann signs in on this page.
    expect(store.getState().uploads.queue).toEqual([]);
  });
});
