// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { api, type ReceivedPage, type ReceivedPackage } from '@filerunner/protocol';
import { storeAnswering } from '../../../app/test-support/api-store';
import { DebugDownloadPage } from './DebugDownloadPage';

afterEach(cleanup);

/** Received package number `n`, with what the history shows of it. */
const received = (n: number) =>
  ({
    slug: `pkg-${n}`,
    name: `Package ${n}`,
    bytes: n * 1_000_000,
    num_files: n,
    sender: { name: 'Sam Sender' },
    downloaded: n % 2 === 0,
  }) as ReceivedPackage;

/** The server's pages of 15: 17 packages in all. */
function pageOf(page: number): ReceivedPage {
  const all = Array.from({ length: 17 }, (_, i) => received(i + 1));
  return {
    packages: all.slice((page - 1) * 15, page * 15),
    page,
    page_size: 15,
    total: 17,
    has_more: page * 15 < 17,
    unseen: 0,
    unseen_by_contract: {},
  };
}

function openPage() {
  const asked: number[] = [];
  const { store } = storeAnswering((route, args) => {
    if (route !== api.inbox.receivedList) return undefined;
    const page = (args as { query: { page: number } }).query.page;
    asked.push(page);
    return pageOf(page);
  });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <DebugDownloadPage />
      </MemoryRouter>
    </Provider>,
  );
  return asked;
}

const shown = () =>
  within(screen.getByRole('list', { name: 'Packages' }))
    .getAllByRole('button')
    .map((row) => row.querySelector('.MuiListItemText-primary')?.textContent);

describe('the download debug page', () => {
  it('lists the received packages five at a time', async () => {
    const asked = openPage();
    await waitFor(() => expect(shown()).toHaveLength(5));
    expect(shown()).toEqual(['Package 1', 'Package 2', 'Package 3', 'Package 4', 'Package 5']);
    const next = screen.getByRole('button', { name: 'Next' });
    fireEvent.click(next);
    expect(shown()[0]).toBe('Package 6');
    fireEvent.click(next);
    expect(shown()).toEqual(['Package 11', 'Package 12', 'Package 13', 'Package 14', 'Package 15']);
    // The fourth page is the server's second.
    fireEvent.click(next);
    await waitFor(() => expect(shown()).toEqual(['Package 16', 'Package 17']));
    expect(asked).toEqual([1, 2]);
    expect(screen.getByRole('button', { name: 'Next' })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous' }));
    await waitFor(() => expect(shown()[0]).toBe('Package 11'));
  });

  it('picks a package by clicking it, and asks for URLs when nothing is chosen', async () => {
    openPage();
    await waitFor(() => expect(shown()).toHaveLength(5));
    expect(screen.getByRole('status').textContent).toBe(
      'Choose a package or enter URLs to download.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Download' }));
    await screen.findByText('URLs required');

    const row = screen.getByRole('button', { name: /^Package 2 / });
    fireEvent.click(row);
    expect(row.getAttribute('aria-pressed')).toBe('true');
    expect(screen.queryByText('URLs required')).toBeNull();
    fireEvent.click(row);
    expect(row.getAttribute('aria-pressed')).toBe('false');
  });
});
