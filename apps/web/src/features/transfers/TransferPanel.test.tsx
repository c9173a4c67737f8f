// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { User } from '@filerunner/protocol';
import type { UploadRecord, UploadStatus } from '@filerunner/transfer';
import { storeAnswering } from '../../app/test-support/api-store';
import { initialAuthState } from '../auth/auth-slice';
import { tabRecordOf } from './tab-transfers';
import { uploadOf } from './test-support/upload-records';
import { TransferPanel } from './TransferPanel';
import { otherTabRecordsRead } from './transfers-slice';
import type { UploadControl, UploadController } from './upload-controller';

afterEach(cleanup);

/**
 * The panel over a queue of the given records, with the page's uploads standing in for the
 * engine: the controls the person presses are recorded (and accepted).
 */
function panelWith(uploads: UploadRecord[], options: { expanded?: boolean } = {}) {
  const pressed: [string, UploadControl][] = [];
  const controller = {
    control: (id: string, control: UploadControl) => {
      pressed.push([id, control]);
      return true;
    },
  } as unknown as UploadController;
  const { store } = storeAnswering(() => undefined, {
    uploads: controller,
    preloadedState: {
      uploads: {
        queue: uploads.map((u) => u.id),
        records: Object.fromEntries(uploads.map((u) => [u.id, u])),
      },
      transfers: {
        panelExpanded: options.expanded ?? true,
        pausedOffline: [],
        otherTabs: [],
        interrupted: [],
      },
    },
  });
  render(
    <Provider store={store}>
      <TransferPanel />
    </Provider>,
  );
  return { store, pressed };
}

const item = (name: string) => screen.getByRole('listitem', { name });
const buttonsOf = (name: string) =>
  within(item(name))
    .queryAllByRole('button')
    .map((b) => b.textContent);
const ring = () => screen.getByRole('button', { name: /^Upload queue:/ });

describe('the transfer panel', () => {
  it('is not there while the upload queue is empty', () => {
    panelWith([]);
    expect(screen.queryByRole('complementary', { name: 'Transfers' })).toBeNull();
  });

  it.each<[UploadStatus, string[]]>([
    ['QUEUED', ['Cancel']],
    ['UPLOADING', ['Pause', 'Cancel']],
    ['RETRYING', ['Pause', 'Cancel']],
    ['PAUSED', ['Resume', 'Cancel']],
    ['UPLOADED', []],
    ['COMPLETING', []],
    ['COMPLETED', []],
    ['FORCE_COMPLETED', []],
    ['INCOMPLETE', ['Retry', 'Cancel']],
    ['FAILED', ['Retry', 'Complete', 'Cancel']],
  ])('offers an upload that is %s the controls %j', (status, controls) => {
    panelWith([uploadOf('a', status, { completedFiles: 1 })]);
    expect(buttonsOf('Package a')).toEqual(controls);
  });

  it('passes Pause, Resume and Cancel on to the upload they belong to', () => {
    const { pressed } = panelWith([uploadOf('a', 'UPLOADING'), uploadOf('b', 'PAUSED')]);
    fireEvent.click(within(item('Package a')).getByRole('button', { name: 'Pause' }));
    fireEvent.click(within(item('Package b')).getByRole('button', { name: 'Resume' }));
    fireEvent.click(within(item('Package b')).getByRole('button', { name: 'Cancel' }));
    expect(pressed).toEqual([
      ['a', 'pause'],
      ['b', 'resume'],
      ['b', 'cancel'],
    ]);
  });

  it('disables Complete until some file has arrived', () => {
    const { pressed } = panelWith([
      uploadOf('a', 'FAILED', { completedFiles: 0 }),
      uploadOf('b', 'FAILED', { completedFiles: 3 }),
    ]);
    const complete = (name: string) =>
      within(item(name)).getByRole('button', { name: 'Complete' }) as HTMLButtonElement;
    expect(complete('Package a').disabled).toBe(true);
    expect(complete('Package b').disabled).toBe(false);
    fireEvent.click(complete('Package b'));
    expect(pressed).toEqual([['b', 'complete']]);
  });

  it('shows Retrying for a second before the retry is sent', async () => {
    const { pressed } = panelWith([uploadOf('a', 'FAILED')]);
    const pressedAt = Date.now();
    fireEvent.click(within(item('Package a')).getByRole('button', { name: 'Retry' }));
    expect(within(item('Package a')).getByRole('status').textContent).toBe('Retrying');
    expect(buttonsOf('Package a')).toEqual([]);
    expect(pressed).toEqual([]);
    await waitFor(() => expect(pressed).toEqual([['a', 'retry']]), { timeout: 3000 });
    expect(Date.now() - pressedAt).toBeGreaterThanOrEqual(1000);
  });

  it('shows how far an upload is: files, bytes, rate and time left', () => {
    panelWith([
      uploadOf('a', 'UPLOADING', {
        totalFiles: 60,
        completedFiles: 12,
        totalBytes: 6_000_000,
        completedBytes: 1_500_000,
        rate: 1_250_000,
        estimated: 4,
      }),
      uploadOf('b', 'QUEUED', { totalFiles: 1, totalBytes: 2_000_000_000 }),
    ]);
    const figures = (name: string) => within(item(name)).getByTestId('upload-figures').textContent;
    expect(figures('Package a')).toBe('25% · 12 of 60 files · 1.5 MB of 6 MB · 10 Mb/s · 4 s left');
    expect(figures('Package b')).toBe('0% · 0 of 1 file · 0 bytes of 2 GB');
    expect(within(item('Package a')).getByTestId('upload-status').textContent).toBe('Uploading');
    expect(within(item('Package b')).getByTestId('upload-status').textContent).toBe('Queued');
  });

  it('lists the failed files from the failed banner', async () => {
    const failedFiles = [
      { path: 'Shoot/A001.mov', size: 4_000_000, lastModified: 1 },
      { path: 'Shoot/day 2/notes.txt', size: 1200, lastModified: 1 },
    ];
    panelWith([uploadOf('a', 'FAILED', { failedFiles, error: 'Uploads failed to complete' })]);
    const banner = within(item('Package a')).getByRole('alert');
    expect(banner.textContent).toContain('We failed to upload some of your files');
    expect(banner.textContent).toContain('Uploads failed to complete');
    fireEvent.click(within(banner).getByRole('button', { name: 'View files' }));
    const dialog = await screen.findByRole('dialog', { name: 'Files that failed in Package a' });
    const listed = within(dialog).getAllByRole('listitem');
    expect(listed.map((li) => li.textContent)).toEqual([
      'Shoot/A001.mov4 MB',
      'Shoot/day 2/notes.txt1.2 KB',
    ]);
  });

  it('warns while files are retried, and asks to retry or cancel a package left incomplete', () => {
    panelWith([uploadOf('a', 'RETRYING'), uploadOf('b', 'INCOMPLETE')]);
    expect(within(item('Package a')).getByRole('alert').textContent).toBe(
      'We are having trouble uploading some of your files',
    );
    expect(within(item('Package b')).getByRole('alert').textContent).toBe(
      'We experienced an issue completing your package. Please retry or cancel.',
    );
  });

  it('says a sent package has been emailed to the recipients', () => {
    panelWith([uploadOf('a', 'COMPLETED')]);
    expect(within(item('Package a')).getByRole('alert').textContent).toBe(
      'Your package has been sent. The recipients have been emailed.',
    );
  });

  it('collapses to a ring with the queue count, coloured by the queue state', async () => {
    const { store } = panelWith(
      [
        uploadOf('a', 'COMPLETED'),
        uploadOf('b', 'UPLOADING', { totalBytes: 1000, completedBytes: 0 }),
        uploadOf('c', 'QUEUED', { totalBytes: 1000 }),
      ],
      { expanded: false },
    );
    expect(screen.queryByRole('dialog', { name: 'Upload queue' })).toBeNull();
    expect(ring().getAttribute('aria-label')).toBe('Upload queue: 3 uploads, 33%');
    expect(ring().dataset.tone).toBe('primary');
    expect(screen.getByTestId('queue-count').textContent).toBe('3');

    fireEvent.click(ring());
    const queue = await screen.findByRole('dialog', { name: 'Upload queue' });
    expect(within(queue).getAllByRole('listitem', { name: /^Package/ })).toHaveLength(3);
    // The dimmed screen around the queue collapses it when clicked.
    fireEvent.click(document.querySelector('.MuiBackdrop-root')!);
    await waitFor(() => expect(store.getState().transfers.panelExpanded).toBe(false));
  });

  it.each<[UploadStatus[], string]>([
    [['UPLOADING', 'RETRYING'], 'warning'],
    [['COMPLETED', 'FORCE_COMPLETED'], 'warning'],
    [['RETRYING', 'PAUSED'], 'error'],
    [['COMPLETED', 'FAILED'], 'error'],
  ])('colours the ring of uploads %j as %s', (statuses, tone) => {
    panelWith(
      statuses.map((s, i) => uploadOf(String(i), s)),
      { expanded: false },
    );
    expect(ring().dataset.tone).toBe(tone);
  });

  it('clears the queue once every upload is sent', async () => {
    panelWith([uploadOf('a', 'COMPLETED'), uploadOf('b', 'FAILED')]);
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    cleanup();

    const sent = panelWith([uploadOf('a', 'COMPLETED'), uploadOf('b', 'FORCE_COMPLETED')]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear' }));
    expect(sent.store.getState().uploads.queue).toEqual([]);
    await waitFor(() =>
      expect(screen.queryByRole('complementary', { name: 'Transfers' })).toBeNull(),
    );
  });

  it('shows an upload another tab runs: its progress, no controls, then sent', () => {
    const otherTab = (upload: UploadRecord) => [tabRecordOf('tab-a', 7, [upload], Date.now())];
    const { store } = storeAnswering(() => undefined, {
      preloadedState: {
        auth: { ...initialAuthState, user: { id: 7 } as User },
        transfers: {
          panelExpanded: true,
          pausedOffline: [],
          otherTabs: otherTab(
            uploadOf('p1', 'UPLOADING', { completedBytes: 250, completedFiles: 1 }),
          ),
          interrupted: [],
        },
      },
    });
    render(
      <Provider store={store}>
        <TransferPanel />
      </Provider>,
    );
    const shown = within(item('Package p1'));
    expect(shown.getByTestId('upload-status').textContent).toBe('Uploading in another tab');
    expect(shown.getByTestId('upload-figures').textContent).toMatch(/^25% · 1 of 4 files · /);
    expect(buttonsOf('Package p1')).toEqual([]);
    // Behind the open queue, the ring counts it too.
    expect(
      screen
        .getByRole('button', { name: /^Upload queue:/, hidden: true })
        .getAttribute('aria-label'),
    ).toBe('Upload queue: 1 upload, 25%');

    act(() => {
      store.dispatch(
        otherTabRecordsRead(otherTab(uploadOf('p1', 'COMPLETED', { completedBytes: 1000 }))),
      );
    });
    expect(shown.getByTestId('upload-status').textContent).toBe('Completed in another tab');
    expect(
      shown.getByText('Your package has been sent. The recipients have been emailed.'),
    ).toBeTruthy();

    act(() => {
      store.dispatch(otherTabRecordsRead([]));
    });
    expect(screen.queryByRole('complementary', { name: 'Transfers' })).toBeNull();
  });
});
