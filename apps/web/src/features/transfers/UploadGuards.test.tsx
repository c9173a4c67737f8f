// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { OfflineBanner } from '../shell/OfflineBanner';
import { uploadsOnSilentNetwork } from './test-support/silent-uploads';
import { TransferPanel } from './TransferPanel';
import { controlUpload } from './upload-actions';
import { UploadGuards } from './UploadGuards';

// The guards with the real controller and engine over a network that never answers, and the
// browser's connection switched as Chromium switches it: navigator.onLine and its events.

let online = true;
beforeEach(() => {
  online = true;
  Object.defineProperty(window.navigator, 'onLine', { configurable: true, get: () => online });
});
afterEach(cleanup);

function connection(to: 'online' | 'offline') {
  act(() => {
    online = to === 'online';
    window.dispatchEvent(new Event(to));
  });
}

function pageWithUploads() {
  const uploads = uploadsOnSilentNetwork();
  render(
    <Provider store={uploads.store}>
      <TransferPanel />
      <OfflineBanner />
      <UploadGuards />
    </Provider>,
  );
  return uploads;
}

const banner = () => screen.queryByText(/^You are currently offline/)?.textContent ?? null;

describe('the upload guards', () => {
  it('pause uploads while offline and resume, when back, only those the connection paused', async () => {
    const { store, send, status } = pageWithUploads();
    send('a');
    send('b');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    connection('offline');
    await waitFor(() => expect(status('a')).toBe('PAUSED'));
    expect(banner()).toBe('You are currently offline. Your upload has been paused.');
    expect(store.getState().transfers.pausedOffline).toEqual(['a']);
    // Offline, the connection decides: Pause and Resume are not offered, Cancel is.
    const item = within(screen.getByRole('listitem', { name: 'Package a' }));
    expect(item.getAllByRole('button').map((b) => b.textContent)).toEqual(['Cancel']);

    connection('online');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    expect(banner()).toBeNull();
    expect(store.getState().transfers.pausedOffline).toEqual([]);
    expect(status('b')).toBe('QUEUED');
  });

  it('leave an upload the person paused paused when the connection comes back', async () => {
    const { store, send, status } = pageWithUploads();
    send('a');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    fireEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(status('a')).toBe('PAUSED'));

    connection('offline');
    expect(banner()).toBe('You are currently offline. Your upload has been paused.');
    expect(store.getState().transfers.pausedOffline).toEqual([]);
    connection('online');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(status('a')).toBe('PAUSED');
  });

  it('pause an upload whose turn comes while offline', async () => {
    const { store, send, status } = pageWithUploads();
    send('a');
    send('b');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    connection('offline');
    await waitFor(() => expect(status('a')).toBe('PAUSED'));
    store.dispatch(controlUpload('a', 'cancel'));
    await waitFor(() => expect(status('b')).toBe('PAUSED'));
    connection('online');
    await waitFor(() => expect(status('b')).toBe('UPLOADING'));
  });

  it('say plainly offline when no upload is under way', () => {
    pageWithUploads();
    connection('offline');
    expect(banner()).toBe('You are currently offline');
  });

  it('ask before the tab closes while a package is not yet sent', async () => {
    const { send, status } = pageWithUploads();
    const closing = () => {
      const event = new Event('beforeunload', { cancelable: true });
      window.dispatchEvent(event);
      return event.defaultPrevented;
    };
    expect(closing()).toBe(false);
    send('a');
    await waitFor(() => expect(status('a')).toBe('UPLOADING'));
    expect(closing()).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(status('a')).toBeUndefined());
    expect(closing()).toBe(false);
  });
});
