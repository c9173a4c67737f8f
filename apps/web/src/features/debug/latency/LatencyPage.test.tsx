// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { api, type LatencyHosts } from '@filerunner/protocol';
import { storeAnswering } from '../../../app/test-support/api-store';
import { LatencyPage } from './LatencyPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const hosts: LatencyHosts = {
  groups: [
    {
      name: 'LON',
      hosts: [
        { name: 'lon1', url: 'https://lon1.example.com' },
        { name: 'lon2', url: 'https://lon2.example.com' },
      ],
    },
    { name: 'AUS', hosts: [{ name: 'aus1', url: 'https://aus1.example.com' }] },
  ],
};

/** The page over a server listing `hosts`, in a browser where only `up` hosts answer. */
function openLatency(up: string[]) {
  const asked: string[] = [];
  vi.stubGlobal('fetch', async (url: string) => {
    asked.push(url);
    if (!up.some((host) => url.startsWith(host))) throw new TypeError('Failed to fetch');
    return new Response(null);
  });
  const { store } = storeAnswering((route) => (route === api.latency.hosts ? hosts : undefined));
  render(
    <Provider store={store}>
      <MemoryRouter>
        <LatencyPage />
      </MemoryRouter>
    </Provider>,
  );
  return asked;
}

/** The chart renders in jsdom slowly, more so on a busy machine. */
const WAIT = { timeout: 10_000 };

const section = (name: string) => screen.getByRole('region', { name });

describe('LatencyPage', () => {
  it('says No response per host, and Offline for a group none of whose hosts answered', async () => {
    const asked = openLatency(['https://lon1.example.com']);
    await waitFor(() => expect(within(section('AUS')).getByText('Offline')).toBeTruthy(), WAIT);
    const lon = section('LON');
    await waitFor(() => expect(within(lon).getByText('No response')).toBeTruthy(), WAIT);
    expect(within(lon).queryByText('Offline')).toBeNull();
    expect(within(lon).getAllByText(/^\d+ ms$/)).toHaveLength(2); // the group, and lon1
    expect(within(section('AUS')).getByText('No response')).toBeTruthy();
    // Five GETs of each host's /healthcheck.
    expect(asked.filter((u) => u === 'https://aus1.example.com/healthcheck')).toHaveLength(5);
    expect(asked).toHaveLength(15);
  });

  it('measures every host again on Refresh', async () => {
    const asked = openLatency(['https://lon1.example.com', 'https://aus1.example.com']);
    const refresh = await screen.findByRole('button', { name: 'Refresh' }, WAIT);
    await waitFor(() => expect((refresh as HTMLButtonElement).disabled).toBe(false), WAIT);
    expect(asked).toHaveLength(15);
    fireEvent.click(refresh);
    await waitFor(() => expect((refresh as HTMLButtonElement).disabled).toBe(false), WAIT);
    expect(asked).toHaveLength(30);
    expect(screen.queryByText('Offline')).toBeNull();
  });
});
