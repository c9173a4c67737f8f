// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  api,
  inboxMessages,
  type ApiRoute,
  type Contract,
  type DownloadHistory,
  type RecipientGroup,
  type SentPackage,
  type SentRecipient,
  type User,
} from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering, type Answer } from '../../app/test-support/api-store';
import { partnersGroup, testContract } from '../../app/test-support/contracts';
import { ToastProvider } from '../../components/ToastProvider';
import { initialAuthState } from '../auth/auth-slice';
import { projectsApi } from '../projects/projects-api';
import { selectDownloads } from '../transfers/downloads-slice';
import { SentPage } from './SentPage';

afterEach(cleanup);

const contract = (pin: Contract['settings']['pin_verification'] = 'none'): Contract =>
  testContract({ name: 'Demo', settings: { pin_verification: pin } });

function recipient(id: number, name: string, change: Partial<SentRecipient> = {}): SentRecipient {
  return {
    id,
    package_slug: 'reel',
    name,
    first_name: name.split(' ')[0]!,
    last_name: name.split(' ')[1] ?? '',
    email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
    mobile: null,
    mobile_hint: null,
    verified: true,
    pin_required: false,
    pin_verified: false,
    removed: false,
    seen: false,
    downloaded: 'none',
    downloads: [],
    ...change,
  };
}

const reel: SentPackage = {
  id: 1,
  slug: 'reel',
  name: 'Reel 1',
  sender: { name: 'Sam Sender' },
  contract: { id: 1, slug: 'demo', name: 'Demo' },
  date_sent: '2025-01-05T15:04:00.000Z',
  valid_date: '2025-01-05T15:04:00.000Z',
  expires_date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
  expired: false,
  expires_soon: false,
  bytes: 10,
  num_files: 1,
  message: '',
  pin_verified: false,
  invalid_filenames: false,
  can_extend_expiry: false,
  downloaded: false,
  removed: false,
  seen: false,
  recipients: [
    recipient(3, 'Rita Recipient', {
      downloaded: 'complete',
      downloads: [
        {
          min_ts: '2025-01-06T10:00:00.000Z',
          ip: '203.0.113.9',
          bytes: 10,
          duration: 2,
          is_partial: false,
          timestamp: '2025-01-06T10:00:02.000Z',
        },
      ],
    }),
    recipient(4, 'Otto Other', { downloaded: 'partial' }),
  ],
};

/** Rita's download in depth: every file, verified by her engine, with its signed receipt. */
const reelHistory: DownloadHistory = {
  files: ['a.mov'],
  recipients: [
    {
      id: 3,
      email: 'rita@example.com',
      downloads: [
        {
          ...reel.recipients[0]!.downloads[0]!,
          kind: 'package',
          files_covered: 1,
          covered: null,
          verification: 'verified',
          receipt: {
            id: 7,
            receipt: 'eyJhbGciOiJFZERTQSJ9.eyJzdWIiOiJyaXRhIn0.c2ln',
            recipient_email: 'rita@example.com',
            issued_at: '2025-01-06T10:00:03.000Z',
            bytes: 10,
            verified: 1,
            unverified: 0,
            failed: 0,
          },
        },
      ],
    },
    { id: 4, email: 'otto@example.com', downloads: [] },
  ],
};

const groups: RecipientGroup[] = [
  partnersGroup(
    { id: 3, name: 'Rita Recipient', email: 'rita@example.com' },
    { id: 5, name: 'Nina New', email: 'nina@example.com' },
  ),
];

type Args = { params: { slug: string; userId?: number }; body?: Record<string, unknown> };

async function openSent(
  pkg: SentPackage,
  options: { answer?: Answer; pin?: Contract['settings']['pin_verification'] } = {},
) {
  let current = pkg;
  const { store, calls } = storeAnswering(
    (route: ApiRoute, args) => {
      const own = options.answer?.(route, args);
      if (own !== undefined) return own;
      const { params } = (args ?? {}) as Args;
      if (route === api.contracts.list) return [contract(options.pin)];
      if (route === api.inbox.sentList) {
        return { packages: [current], page: 1, page_size: 20, total: 1, has_more: false };
      }
      if (route === api.inbox.sent) return current;
      if (route === api.inbox.sentFiles) {
        return {
          files: [{ user_path: 'a.mov', size: 10, object: 'a.mov' }],
          total_files: 1,
          page: 1,
          page_size: 100,
          has_more: false,
          locked: false,
        };
      }
      if (route === api.inbox.removeRecipient) {
        current = {
          ...current,
          recipients: current.recipients.map((r) =>
            r.id === params.userId ? { ...r, removed: true } : r,
          ),
        };
        return current;
      }
      if (route === api.recipients.list) return groups;
      if (route === api.downloadHistory.packageHistory) return reelHistory;
      throw new Error(`unexpected call ${route.path}`);
    },
    {
      preloadedState: {
        auth: { ...initialAuthState, user: { id: 2, name: 'Sam' } as User },
        projects: { selectedSlug: 'demo' },
      },
    },
  );
  await store.dispatch(projectsApi.endpoints.contracts.initiate());
  const router = createMemoryRouter([{ path: '/sent/:slug?', element: <SentPage /> }], {
    initialEntries: ['/sent'],
  });
  render(
    <Provider store={store}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </Provider>,
  );
  // The detail pane loads lazily: its first load in jsdom on a busy machine takes seconds.
  await screen.findByRole('heading', { name: pkg.name }, { timeout: 10_000 });
  return { store, calls };
}

const row = (name: string) => screen.getByRole('listitem', { name });
const callsTo = (calls: { route: ApiRoute; args: unknown }[], route: ApiRoute) =>
  calls.filter((c) => c.route === route).map((c) => c.args as Args);

// Several dialogs and pickers per test: MUI in jsdom on a busy machine takes seconds.
describe('the Sent screen', { timeout: 20_000 }, () => {
  it('says when nothing has been sent', async () => {
    const { store } = storeAnswering((route) => {
      if (route === api.contracts.list) return [contract()];
      return { packages: [], page: 1, page_size: 20, total: 0, has_more: false };
    });
    await store.dispatch(projectsApi.endpoints.contracts.initiate());
    const router = createMemoryRouter([{ path: '/sent/:slug?', element: <SentPage /> }], {
      initialEntries: ['/sent'],
    });
    render(
      <Provider store={store}>
        <RouterProvider router={router} />
      </Provider>,
    );
    await screen.findByText("You haven't sent any packages yet...");
  });

  it("shows each recipient's download status and history", async () => {
    await openSent(reel);
    within(row('Rita Recipient')).getByText('Downloaded');
    within(row('Otto Other')).getByText('Partially downloaded');
    fireEvent.click(within(row('Rita Recipient')).getByRole('button', { name: 'History (1)' }));
    const history = await screen.findByRole('table', { name: 'Downloads by Rita Recipient' });
    within(history).getByText('203.0.113.9');
    within(history).getByText('Complete');
    // The detail arrives from the history call: the files it covered, the check, the receipt.
    await within(history).findByText('Verified');
    fireEvent.click(within(history).getByRole('button', { name: 'All files' }));
    within(screen.getByRole('list', { name: 'Files this download delivered' })).getByText('a.mov');
    const receipt = within(history).getByRole('link', { name: 'Receipt (.jws)' });
    expect(receipt.getAttribute('download')).toBe('Reel 1.receipt-7.jws');
    expect(decodeURIComponent(receipt.getAttribute('href')!)).toContain(
      reelHistory.recipients[0]!.downloads[0]!.receipt!.receipt,
    );
    expect(screen.getByRole('link', { name: 'public key' }).getAttribute('href')).toBe(
      '/api/receipts/public-key/',
    );
  });

  it("downloads the sender's own copy: the package and a file, by the sender's grants", async () => {
    const { calls, store } = await openSent(reel, {
      answer: (route) => {
        if (route === api.downloads.sentPackageGrant) {
          return {
            filename: 'Reel 1.tar',
            download_url: '/api/packages/sent/reel/tar/Reel%201.tar',
            size: 3072,
            num_files: 1,
            mtime: 1,
            files: [{ path: 'a.mov', size: 10, xxh128: null }],
          };
        }
        if (route === api.downloads.sentFileGrant) {
          return {
            filename: 'a.mov',
            download_url: '/api/packages/sent/reel/file/a.mov',
            size: 10,
          };
        }
        return undefined;
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Download All' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Download a.mov' }));
    await waitFor(() => expect(callsTo(calls, api.downloads.sentFileGrant)).toHaveLength(1));
    expect(callsTo(calls, api.downloads.sentPackageGrant).map((a) => a.params)).toEqual([
      { slug: 'reel' },
    ]);
    expect(callsTo(calls, api.downloads.sentFileGrant)[0]!.params).toEqual({
      slug: 'reel',
      '*': 'a.mov',
    });
    // Both in the download queue, under the package's name.
    expect(selectDownloads(store.getState()).map((d) => d.packageFile)).toEqual([null, 'a.mov']);
  });

  it('removes a recipient after confirmation: the row dims and its actions close', async () => {
    const { calls } = await openSent(reel);
    fireEvent.click(within(row('Otto Other')).getByRole('button', { name: 'Remove Otto Other' }));
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByText(/Remove Otto Other's access/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    await screen.findByText(inboxMessages.removedRecipients, {}, { timeout: 10_000 });
    expect(callsTo(calls, api.inbox.removeRecipient).map((a) => a.params)).toEqual([
      { slug: 'reel', userId: 4 },
    ]);
    await waitFor(() => expect(row('Otto Other').dataset.removed).toBe('true'));
    within(row('Otto Other')).getByText('Access removed');
    expect(
      within(row('Otto Other')).getByRole('button', { name: 'Remove Otto Other' }),
    ).toHaveProperty('disabled', true);
    expect(
      within(row('Otto Other')).getByRole('button', { name: 'Update the mobile of Otto Other' }),
    ).toHaveProperty('disabled', true);
    expect(
      within(row('Rita Recipient')).getByRole('button', { name: 'Remove Rita Recipient' }),
    ).toHaveProperty('disabled', false);
  });

  it("updates a recipient's mobile with the spec's messages", async () => {
    let refuse = true;
    const { calls } = await openSent(reel, {
      answer: (route) => {
        if (route !== api.inbox.updateRecipient) return undefined;
        if (refuse) throw new ApiError('HTTP_ERROR', 400, { mobile: ['bad'] }, '400');
        return reel;
      },
    });
    const open = () =>
      fireEvent.click(
        within(row('Rita Recipient')).getByRole('button', {
          name: 'Update the mobile of Rita Recipient',
        }),
      );
    open();
    const dialog = await screen.findByRole('dialog');
    const field = within(dialog).getByRole('textbox', { name: 'Mobile number' });
    const save = within(dialog).getByRole('button', { name: 'Save' });
    fireEvent.click(save);
    await within(dialog).findByText(inboxMessages.mobileRequired);

    fireEvent.change(field, { target: { value: '+44 12' } });
    fireEvent.click(save);
    await within(dialog).findByText(inboxMessages.invalidMobile);

    fireEvent.change(field, { target: { value: '+447911123456' } });
    fireEvent.click(save);
    await within(dialog).findByText(inboxMessages.mobileInvalid);

    refuse = false;
    fireEvent.click(save);
    await screen.findByText(inboxMessages.mobileUpdated);
    const sent = callsTo(calls, api.inbox.updateRecipient);
    expect(sent.at(-1)).toEqual({
      params: { slug: 'reel', userId: 3 },
      body: { mobile: '+447911123456' },
    });
  });

  it('adds recipients picked as on Share, asking mobiles when every recipient needs a PIN', async () => {
    const { calls } = await openSent(
      { ...reel, pin_verified: true },
      {
        pin: 'all',
        answer: (route) => (route === api.inbox.addRecipients ? reel : undefined),
      },
    );
    fireEvent.click(screen.getByRole('button', { name: 'Add recipients' }));
    const dialog = await screen.findByRole('dialog');
    const picker = within(dialog).getByRole('combobox', { name: 'Recipients' });
    fireEvent.change(picker, { target: { value: 'Rita' } });
    // Rita already has the package: the picker offers nobody.
    await screen.findByText('New user? Enter valid email to add.');
    fireEvent.change(picker, { target: { value: 'Nina' } });
    fireEvent.click(await screen.findByRole('option', { name: /Nina New/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await within(dialog).findByText(inboxMessages.pinMobilesAll);
    expect(callsTo(calls, api.inbox.addRecipients)).toHaveLength(0);

    fireEvent.change(within(dialog).getByRole('textbox', { name: /Mobile for nina/ }), {
      target: { value: '+447911123456' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText(inboxMessages.added);
    expect(callsTo(calls, api.inbox.addRecipients)).toEqual([
      {
        params: { slug: 'reel' },
        body: {
          contract: 'demo',
          message: '',
          pin_verify: true,
          recipients: [{ user: 5, mobile: '+447911123456' }],
        },
      },
    ]);
  });

  it('tells the sender when recipients could not be added', async () => {
    await openSent(reel, {
      answer: (route) => {
        if (route === api.inbox.addRecipients) throw new ApiError('HTTP_ERROR', 500, {}, '500');
        return undefined;
      },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Add recipients' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Recipients' }), {
      target: { value: 'Nina' },
    });
    fireEvent.click(await screen.findByRole('option', { name: /Nina New/ }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add' }));
    await screen.findByText(inboxMessages.addFailed);
  });
});
