// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { api, defaultFilesystemConstraints } from '@filerunner/protocol';
import { storeAnswering } from '../../../app/test-support/api-store';
import { FsAccessCheckPage } from './FsAccessCheckPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

/** The page in a browser whose directory picker does `pick`. */
function openChecker(pick: () => Promise<unknown>) {
  vi.stubGlobal('showDirectoryPicker', pick);
  const { store } = storeAnswering((route) =>
    route === api.filesystem.constraints ? defaultFilesystemConstraints : undefined,
  );
  render(
    <Provider store={store}>
      <MemoryRouter>
        <FsAccessCheckPage />
      </MemoryRouter>
    </Provider>,
  );
}

/** Longer than the default second: the first render of the page is slow on a busy machine. */
const WAIT = { timeout: 10_000 };

const testButton = () => screen.getByRole('button', { name: 'Test' }) as HTMLButtonElement;
const selectButton = () => screen.getByRole('button', { name: /directory$/ });

describe('FsAccessCheckPage', () => {
  it('asks for a directory before any name is tested', () => {
    openChecker(async () => ({ name: 'Work' }));
    expect(screen.getByText('No directory selected')).toBeTruthy();
    expect(testButton().disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Pick files' }) as HTMLButtonElement).disabled).toBe(
      true,
    );
  });

  it('says when selecting failed, and nothing when the picker was closed', async () => {
    openChecker(async () => {
      throw new DOMException('The user aborted a request.', 'AbortError');
    });
    fireEvent.click(selectButton());
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(screen.queryByText('Failed to select directory')).toBeNull();

    vi.stubGlobal('showDirectoryPicker', async () => {
      throw new DOMException('Not allowed', 'SecurityError');
    });
    fireEvent.click(selectButton());
    expect(await screen.findByText('Failed to select directory', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('No directory selected')).toBeTruthy();
  });

  it('refuses to test a blank name', async () => {
    openChecker(async () => ({ name: 'Work' }));
    fireEvent.click(selectButton());
    expect(await screen.findByText('Directory: Work', {}, WAIT)).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: 'File name' }), {
      target: { value: '   ' },
    });
    fireEvent.click(testButton());
    expect(await screen.findByText('Enter a file name', {}, WAIT)).toBeTruthy();
    expect(screen.getByText('No names tested yet.')).toBeTruthy();
  });
});
