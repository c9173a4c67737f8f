// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { UploadRecord } from '@filerunner/transfer';
import { storeAnswering } from '../../app/test-support/api-store';
import { DownloadController } from './download-controller';
import type { DownloadJob, DownloadOutcome } from './download-runner';
import type { DownloadRecord, DownloadStatus } from './downloads-slice';
import { downloadOf } from './test-support/download-records';
import { uploadOf } from './test-support/upload-records';
import { TransferPanel } from './TransferPanel';

afterEach(cleanup);

/** The panel over these uploads and downloads, expanded; folders usable unless told. */
function panelWith(
  downloads: DownloadRecord[],
  options: { uploads?: UploadRecord[]; folders?: boolean; controller?: DownloadController } = {},
) {
  const uploads = options.uploads ?? [];
  const { store } = storeAnswering(() => undefined, {
    ...(options.controller && { downloads: options.controller }),
    preloadedState: {
      uploads: {
        queue: uploads.map((u) => u.id),
        records: Object.fromEntries(uploads.map((u) => [u.id, u])),
      },
      downloads: {
        queue: downloads.map((d) => d.identifier),
        records: Object.fromEntries(downloads.map((d) => [d.identifier, d])),
        currentId: null,
        folderDownloads: options.folders ?? true,
      },
      transfers: { panelExpanded: true, pausedOffline: [], otherTabs: [], interrupted: [] },
    },
  });
  render(
    <Provider store={store}>
      <TransferPanel />
    </Provider>,
  );
  return { store };
}

const item = (name: string) => screen.getByRole('listitem', { name });
const buttonsOf = (name: string) =>
  within(item(name))
    .queryAllByRole('button')
    .map((b) => b.textContent);
const statusOf = (name: string) => within(item(name)).getByTestId('upload-status');
const ring = () => screen.getByRole('button', { name: /queue:/, hidden: true });
const colourOf = (element: HTMLElement) => getComputedStyle(element).color;
// The default theme's palette, which the panel's tones name.
const palette = {
  error: 'rgb(211, 47, 47)',
  warning: 'rgb(237, 108, 2)',
  secondary: 'rgba(0, 0, 0, 0.6)',
};

describe('the DOWNLOADS tab of the transfer panel', () => {
  it('shows the downloads alone, without tabs, when nothing uploads', () => {
    panelWith([downloadOf('a', 'DOWNLOADING', { percentComplete: 40 })]);
    expect(screen.queryByRole('tab')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Download queue' })).toBeTruthy();
    expect(ring().getAttribute('aria-label')).toBe('Download queue: 1 download, 40%');
    expect(statusOf('Package a').textContent).toBe('Downloading 40%');
  });

  it('switches between UPLOADS and DOWNLOADS when both exist, the ring counting both', () => {
    panelWith([downloadOf('d', 'QUEUED')], { uploads: [uploadOf('u', 'UPLOADING')] });
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['UPLOADS', 'DOWNLOADS']);
    expect(ring().getAttribute('aria-label')).toMatch(/^Transfer queue: 2 transfers, /);
    expect(screen.getByRole('list', { name: 'Uploads' })).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Downloads' })).toBeNull();
    fireEvent.click(screen.getByRole('tab', { name: 'DOWNLOADS' }));
    expect(
      within(screen.getByRole('list', { name: 'Downloads' })).getByText('Package d'),
    ).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
  });

  it.each<[DownloadStatus, number, string, string[], keyof typeof palette]>([
    ['QUEUED', 0, 'Queued', ['Select download folder', 'Cancel'], 'secondary'],
    ['QUEUED', 1, 'Retrying', ['Select download folder', 'Cancel'], 'warning'],
    ['DOWNLOADING', 0, 'Downloading 0%', ['Cancel'], 'secondary'],
    ['COMPLETED', 0, 'Completed', [], 'secondary'],
    [
      'FAILED',
      0,
      'Failed',
      ['Retry', 'Standard browser download', 'Download to new folder', 'Cancel'],
      'error',
    ],
  ])(
    'shows a download %s (retried %i times) as %s, with %j, in its colour',
    (status, retryCount, label, buttons, colour) => {
      panelWith([
        downloadOf('a', status, {
          retryCount,
          ...(status === 'FAILED' && { error: { kind: 'other', message: 'x' } }),
        }),
      ]);
      expect(statusOf('Package a').textContent).toBe(label);
      expect(colourOf(statusOf('Package a'))).toBe(palette[colour]);
      expect(buttonsOf('Package a')).toEqual(buttons);
    },
  );

  it('offers no folder where folders cannot be used', () => {
    panelWith(
      [
        downloadOf('a', 'QUEUED', { method: 'browser', rootFolder: null }),
        downloadOf('b', 'FAILED', { method: 'browser', error: { kind: 'network', message: 'x' } }),
      ],
      { folders: false },
    );
    expect(buttonsOf('Package a')).toEqual(['Cancel']);
    expect(buttonsOf('Package b')).toEqual(['Retry', 'Standard browser download', 'Cancel']);
    expect(within(item('Package a')).getByText('Standard browser download')).toBeTruthy();
  });

  it('colours the ring red for a failure, yellow for a retry or a partial failure', () => {
    panelWith([downloadOf('a', 'COMPLETED'), downloadOf('b', 'QUEUED', { retryCount: 1 })]);
    expect(ring().dataset.tone).toBe('warning');
    cleanup();
    panelWith([downloadOf('a', 'PARTIALLY_FAILED'), downloadOf('b', 'FAILED')]);
    expect(ring().dataset.tone).toBe('error');
    cleanup();
    panelWith([downloadOf('a', 'COMPLETED'), downloadOf('b', 'DOWNLOADING')]);
    expect(ring().dataset.tone).toBe('primary');
  });
});

describe('a failed download says what failed and offers its ways out', () => {
  const failedWith = (kind: string, changes: Partial<DownloadRecord> = {}) =>
    downloadOf('a', 'FAILED', {
      error: { kind: kind as never, message: 'engine detail' },
      ...changes,
    });
  const alertOf = (name = 'Package a') => within(item(name)).getByRole('alert');

  it.each<[string, string, string[]]>([
    ['write', 'Unable to download to the selected folder. Please try a different location.', []],
    [
      'quota_exceeded',
      'There is not enough disk space to download to the selected folder. Please free up some space or choose another folder.',
      [],
    ],
    [
      'directory_handle_invalid',
      'The selected folder is no longer accessible. Please choose a valid folder.',
      [],
    ],
    [
      'other',
      'An issue occurred while optimising your download. Please use Standard browser download instead.',
      ['Help'],
    ],
  ])('%s: "%s"', (kind, message, alertButtons) => {
    panelWith([failedWith(kind)]);
    expect(alertOf().textContent).toBe(message + alertButtons.join(''));
    expect(alertOf().className).toMatch(/Error/);
    // Each offers another folder through the status's own button.
    expect(buttonsOf('Package a')).toContain('Download to new folder');
  });

  it('keeps Retry off for a folder that is no longer there', () => {
    panelWith([failedWith('directory_handle_invalid')]);
    const retry = within(item('Package a')).getByRole('button', {
      name: 'Retry',
    }) as HTMLButtonElement;
    expect(retry.disabled).toBe(true);
  });

  it('warns of forbidden names: a package offers the .tar, one file the browser download', () => {
    const failed = [{ path: 'a:b.txt', kind: 'name' as const, message: 'bad name' }];
    panelWith([failedWith('name', { failedFiles: failed })]);
    expect(alertOf().className).toMatch(/Warning/);
    expect(alertOf().textContent).toMatch(
      /^Some files failed to download because their names contain forbidden characters\. Please download the package again as a \.tar file\./,
    );
    expect(
      within(alertOf())
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['View files', 'Download as .tar']);
    expect(within(alertOf()).getByRole('link', { name: 'Help' }).getAttribute('href')).toBe(
      '/help',
    );
    cleanup();
    panelWith([failedWith('name', { packageFile: 'Reel/a:b.txt', method: 'tar' })]);
    expect(alertOf('Reel/a:b.txt').textContent).toMatch(
      /^This file failed to download because its name contains forbidden characters\. Please download it again as a Standard browser download\./,
    );
    expect(
      within(alertOf('Reel/a:b.txt'))
        .queryAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual([]);
    expect(within(alertOf('Reel/a:b.txt')).getByRole('link', { name: 'Help' })).toBeTruthy();
  });

  it('tells a refusal in the server’s words', () => {
    panelWith([
      failedWith('refused', { error: { kind: 'refused', message: 'This package has expired' } }),
    ]);
    expect(alertOf().textContent).toBe('This package has expired');
  });

  it('lists the files of a partially failed download in a warning', async () => {
    const failedFiles = [
      { path: 'Reel/b.dpx', kind: 'write' as const, message: 'Could not write Reel/b.dpx' },
      {
        path: 'Reel/c.dpx',
        kind: 'verification' as const,
        message: 'Reel/c.dpx does not match what was sent',
      },
    ];
    panelWith([downloadOf('a', 'PARTIALLY_FAILED', { failedFiles })]);
    expect(statusOf('Package a').textContent).toBe('Partially Failed');
    expect(colourOf(statusOf('Package a'))).toBe(palette.warning);
    expect(alertOf().className).toMatch(/Warning/);
    expect(alertOf().textContent).toMatch(
      /^2 files failed to download\. The other files are in the folder\./,
    );
    expect(buttonsOf('Package a')).toEqual(['View files']);
    fireEvent.click(within(item('Package a')).getByRole('button', { name: 'View files' }));
    const listed = within(await screen.findByRole('list', { name: 'Failed files' }));
    expect(listed.getByText('Reel/b.dpx')).toBeTruthy();
    expect(listed.getByText('Reel/c.dpx does not match what was sent')).toBeTruthy();
  });
});

describe('the queue as the person drives it', () => {
  it('puts a retried download back ahead of the queued ones, shown as Retrying', async () => {
    const runs: {
      job: DownloadJob;
      end: (outcome: DownloadOutcome) => void;
      fail: (e: Error) => void;
    }[] = [];
    const controller = new DownloadController({
      browser: (job) => new Promise((end, fail) => runs.push({ job, end, fail })),
    });
    panelWith([], { controller, folders: false });
    const request = (name: string) => ({
      receivedPackage: name,
      packageSlug: name,
      packageFile: null,
      method: 'browser' as const,
      unpackOption: 'no' as const,
      invalidFilenames: false,
      grant: async () => ({ downloadUrl: 'https://x/y', filename: `${name}.tar`, size: 10 }),
    });
    await act(async () => {
      controller.enqueue(request('First'));
      controller.enqueue(request('Second'));
      controller.enqueue(request('Third'));
    });
    await act(async () => runs[0]!.fail(Object.assign(new Error('cut'), { kind: 'network' })));
    expect(statusOf('First').textContent).toBe('Failed');
    fireEvent.click(within(item('First')).getByRole('button', { name: 'Retry' }));
    const order = () =>
      within(screen.getByRole('list', { name: 'Downloads' }))
        .getAllByRole('listitem')
        .map((li) => [
          within(li).getByRole('heading').textContent,
          within(li).getByTestId('upload-status').textContent,
        ]);
    expect(order()).toEqual([
      ['First', 'Retrying'],
      ['Second', 'Queued'],
      ['Third', 'Queued'],
    ]);
    // Half a second after the failure, the retried download runs before the others.
    await waitFor(() => expect(runs).toHaveLength(2));
    expect(runs[1]!.job.descriptor.filename).toBe('First.tar');
    expect(statusOf('First').textContent).toBe('Downloading 0%');
  });

  it('cancels a download from its Cancel button', async () => {
    const controller = new DownloadController({ browser: () => new Promise(() => undefined) });
    panelWith([], { controller, folders: false });
    await act(async () => {
      controller.enqueue({
        receivedPackage: 'Only',
        packageSlug: 'only',
        packageFile: null,
        method: 'browser',
        unpackOption: 'no',
        invalidFilenames: false,
        grant: async () => ({ downloadUrl: 'https://x/y', filename: 'only.tar', size: 10 }),
      });
    });
    expect(statusOf('Only').textContent).toBe('Downloading 0%');
    fireEvent.click(within(item('Only')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('complementary', { name: 'Transfers' })).toBeNull();
  });
});
