// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { PackageDownloadGrant } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { resetHiddenSettings, updateHiddenSettings } from '../hidden-settings/hidden-settings';
import { DownloadController } from '../transfers/download-controller';
import type { DownloadFolder, DownloadJob } from '../transfers/download-runner';
import { selectDownloads } from '../transfers/downloads-slice';
import { DownloadAllButton } from './DownloadAllButton';
import { usePackageDownloads } from './use-package-downloads';

afterEach(cleanup);
beforeEach(() => {
  resetHiddenSettings();
  window.localStorage.clear();
});

const grant: PackageDownloadGrant = {
  filename: 'Reel.tar',
  download_url: '/api/downloads/token/Reel.tar',
  size: 3072,
  num_files: 1,
  mtime: 1,
  files: [{ path: 'a.txt', size: 1, xxh128: null }],
};

function Package(props: { invalidFilenames: boolean }) {
  const downloads = usePackageDownloads({
    slug: 'reel',
    name: 'Reel',
    invalidFilenames: props.invalidFilenames,
    packageGrant: async () => grant,
    fileGrant: async () => ({ filename: 'a.txt', download_url: '/x', size: 1 }),
    grantsBy: { kind: 'received' },
    failed: 'Could not start',
  });
  return (
    <DownloadAllButton
      disabled={false}
      folderChoices={downloads.folderChoices}
      invalidFilenames={props.invalidFilenames}
      onChoose={(method) => void downloads.downloadAll(method)}
    />
  );
}

/** Download All of a package, where folders can be used or not, with runners that record. */
function downloadAllOf(options: {
  folders: boolean;
  invalidFilenames?: boolean;
  picked?: DownloadFolder | null;
}) {
  const jobs: DownloadJob[] = [];
  let picks = 0;
  const record = async (job: DownloadJob) => {
    jobs.push(job);
    return { verifiedFiles: 0, unverifiedFiles: [], failedFiles: [], fetchedBytes: 0 };
  };
  const controller = new DownloadController({
    browser: record,
    folder: record,
    pickFolder: async () => {
      picks += 1;
      return options.picked === undefined ? { name: 'Dailies', handle: {} } : options.picked;
    },
  });
  const { store } = storeAnswering(() => undefined, { downloads: controller });
  store.dispatch({ type: 'downloads/folderDownloadsOffered', payload: options.folders });
  render(
    <Provider store={store}>
      <Package invalidFilenames={options.invalidFilenames ?? false} />
    </Provider>,
  );
  return { store, jobs, picks: () => picks };
}

const downloadAll = () => screen.getByRole('button', { name: 'Download All' });
const menuItems = () => screen.getAllByRole('menuitem').map((item) => item.textContent);

describe('Download All', () => {
  it('hands the package to the browser at once where folders cannot be used', async () => {
    const { jobs, store } = downloadAllOf({ folders: false });
    updateHiddenSettings({ optimizedDownload: true });
    expect(downloadAll().getAttribute('aria-haspopup')).toBeNull();
    fireEvent.click(downloadAll());
    await waitFor(() => expect(jobs).toHaveLength(1));
    expect(jobs[0]).toMatchObject({ method: 'browser', folder: null });
    expect(jobs[0]!.descriptor).toMatchObject({ filename: 'Reel.tar', tar: { mtime: 1 } });
    expect(selectDownloads(store.getState())[0]).toMatchObject({
      receivedPackage: 'Reel',
      status: 'COMPLETED',
    });
  });

  it('offers the folder choices by default; support can turn them off (Alt+Shift+P)', async () => {
    downloadAllOf({ folders: true });
    expect(downloadAll().getAttribute('aria-haspopup')).toBe('menu');
    act(() => updateHiddenSettings({ optimizedDownload: false }));
    expect(downloadAll().getAttribute('aria-haspopup')).toBeNull();
    act(() => updateHiddenSettings({ optimizedDownload: true }));
    fireEvent.click(downloadAll());
    expect(menuItems()).toEqual([
      'Unpack into a folder',
      'Save the .tar into a folder',
      'Standard browser download',
    ]);
  });

  it('unpacks into the folder picked at the click', async () => {
    updateHiddenSettings({ optimizedDownload: true });
    const { jobs, store } = downloadAllOf({ folders: true });
    fireEvent.click(downloadAll());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Unpack into a folder' }));
    await waitFor(() => expect(jobs).toHaveLength(1));
    expect(jobs[0]).toMatchObject({ method: 'unpack', folder: { name: 'Dailies' } });
    expect(selectDownloads(store.getState())[0]).toMatchObject({
      rootFolder: 'Dailies',
      unpackOption: 'yes',
      detarFile: true,
    });
  });

  it('queues nothing when the person dismisses the folder picker', async () => {
    updateHiddenSettings({ optimizedDownload: true });
    const { jobs, store, picks } = downloadAllOf({ folders: true, picked: null });
    fireEvent.click(downloadAll());
    fireEvent.click(screen.getByRole('menuitem', { name: 'Save the .tar into a folder' }));
    await waitFor(() => expect(picks()).toBe(1));
    expect(jobs).toEqual([]);
    expect(selectDownloads(store.getState())).toEqual([]);
  });

  it('leads with the .tar for a package with invalid names; unpacking it is the person’s call', async () => {
    updateHiddenSettings({ optimizedDownload: true });
    const { jobs } = downloadAllOf({ folders: true, invalidFilenames: true });
    fireEvent.click(downloadAll());
    expect(menuItems()).toEqual([
      'Save the .tar into a folder',
      'Unpack into a folderSome file names are not valid on every system: they may fail to unpack.',
      'Standard browser download',
    ]);
    fireEvent.click(screen.getByRole('menuitem', { name: /^Unpack into a folder/ }));
    await waitFor(() => expect(jobs).toHaveLength(1));
    expect(jobs[0]!.method).toBe('unpack');
  });
});
