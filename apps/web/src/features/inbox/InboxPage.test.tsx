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
  type PackageFilesPage,
  type ReceivedPackage,
  type ReceivedPage,
  type User,
} from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering, type Answer } from '../../app/test-support/api-store';
import { testContract } from '../../app/test-support/contracts';
import { ToastProvider } from '../../components/ToastProvider';
import { initialAuthState } from '../auth/auth-slice';
import { projectsApi } from '../projects/projects-api';
import { applyRealtimeMessage } from '../realtime/use-realtime';
import { Sidebar } from '../shell/Sidebar';
import { InboxPage } from './InboxPage';

afterEach(cleanup);

const contract = (slug: string, canExtend = false): Contract =>
  testContract({
    id: slug === 'demo' ? 1 : 2,
    slug,
    name: `${slug} project`,
    settings: { can_add_ad_hoc: false, can_extend_expiry: canExtend },
  });

function received(slug: string, change: Partial<ReceivedPackage> = {}): ReceivedPackage {
  return {
    id: slug.length,
    slug,
    name: `Package ${slug}`,
    sender: { name: 'Sam Sender' },
    contract: { id: 1, slug: 'demo', name: 'demo project' },
    date_sent: '2025-01-05T15:04:00.000Z',
    valid_date: '2025-01-05T15:04:00.000Z',
    expires_date: new Date(Date.now() + 5 * 86_400_000).toISOString(),
    expired: false,
    expires_soon: false,
    bytes: 2048,
    num_files: 2,
    message: 'Dailies for review',
    pin_verified: false,
    invalid_filenames: false,
    can_extend_expiry: false,
    seen: true,
    removed: false,
    downloaded: false,
    download_status: 'none',
    locked: false,
    mobile_hint: null,
    ...change,
  };
}

function page(packages: ReceivedPackage[], change: Partial<ReceivedPage> = {}): ReceivedPage {
  const unseen = packages.filter((p) => !p.seen).length;
  return {
    packages,
    page: 1,
    page_size: 15,
    total: packages.length,
    has_more: false,
    unseen,
    unseen_by_contract: { demo: unseen },
    ...change,
  };
}

const files: PackageFilesPage = {
  files: [
    { user_path: 'Reel/a.mov', size: 1024, object: 'a_x1.mov' },
    { user_path: 'Reel/b.mov', size: 1024, object: 'b_x2.mov' },
  ],
  total_files: 2,
  page: 1,
  page_size: 100,
  has_more: false,
  locked: false,
};

const argsOf = (args: unknown) => args as { params?: { slug: string }; query?: { page: number } };

/**
 * The Inbox at `path` over a store whose calls `answer` answers; the package calls answer the
 * packages of `inbox` unless `answer` does.
 */
async function openInbox(
  inbox: ReceivedPackage[],
  options: { path?: string; answer?: Answer; contracts?: Contract[]; withSidebar?: boolean } = {},
) {
  const contracts = options.contracts ?? [contract('demo')];
  const { store, calls } = storeAnswering(
    (route: ApiRoute, args) => {
      const own = options.answer?.(route, args);
      if (own !== undefined) return own;
      if (route === api.contracts.list) return contracts;
      if (route === api.help.settings) return { help_url: null };
      if (route === api.inbox.receivedList) return page(inbox);
      const slug = argsOf(args).params?.slug;
      const pkg = inbox.find((p) => p.slug === slug);
      if (route === api.inbox.received) {
        if (!pkg) throw new ApiError('HTTP_ERROR', 404, { detail: inboxMessages.notFound }, '404');
        return pkg;
      }
      if (route === api.inbox.markSeen) return { ...pkg!, seen: true };
      if (route === api.inbox.receivedFiles) return files;
      if (route === api.inbox.extendExpiry) return { ...pkg!, expires_soon: false };
      throw new Error(`unexpected call ${route.path}`);
    },
    {
      preloadedState: {
        auth: { ...initialAuthState, user: { id: 3, name: 'Rita' } as User },
        projects: { selectedSlug: 'demo' },
      },
    },
  );
  await store.dispatch(projectsApi.endpoints.contracts.initiate());
  const router = createMemoryRouter(
    [
      {
        path: '/inbox/:slug?',
        element: (
          <>
            {options.withSidebar && <Sidebar collapsed={false} />}
            <InboxPage />
          </>
        ),
      },
      { path: '/share', element: <p>Share screen</p> },
    ],
    { initialEntries: [options.path ?? '/inbox'] },
  );
  render(
    <Provider store={store}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </Provider>,
  );
  return { store, calls, router };
}

const list = () => screen.getByRole('list', { name: 'Received packages' });
const detail = () => screen.getByRole('region', { name: 'Package details' });
/** The detail pane once it shows the package `name`. */
async function opened(name: string) {
  // The pane renders its answer deferred, in slices: on a busy machine that takes seconds.
  await screen.findByRole('heading', { name }, { timeout: 10_000 });
  return detail();
}

// Several dialogs and pickers per test: MUI in jsdom on a busy machine takes seconds.
describe('the Inbox', { timeout: 20_000 }, () => {
  it('shows 6 placeholder rows while the list loads', async () => {
    await openInbox([], {
      answer: (route) =>
        route === api.inbox.receivedList ? new Promise(() => undefined) : undefined,
    });
    expect(screen.getAllByTestId('package-placeholder')).toHaveLength(6);
  });

  it('says when nothing has been received, with a link to Share', async () => {
    await openInbox([]);
    await screen.findByText(/You haven't received any packages yet\.\.\./);
    expect(screen.getByRole('link', { name: 'share' }).getAttribute('href')).toBe('/share');
    screen.getByText("This is where you'll find your package information");
  });

  it('opens the newest package, marks it seen, and lists its files with downloads', async () => {
    const { calls } = await openInbox([
      received('new-one', { seen: false }),
      received('older', { expires_soon: true }),
      received('gone', { expired: true }),
    ]);
    await waitFor(() => expect(within(list()).getAllByTestId('package-row')).toHaveLength(3));
    const [first, expiring, expired] = within(list()).getAllByTestId('package-row');
    expect(first!.getAttribute('aria-current')).toBe('true');
    within(expiring!).getByText('Expiring');
    within(expired!).getByText('Expired');

    await opened('Package new-one');
    within(detail()).getByText('Dailies for review');
    await waitFor(() =>
      expect(
        calls.filter((c) => c.route === api.inbox.markSeen).map((c) => argsOf(c.args).params),
      ).toEqual([{ slug: 'new-one' }]),
    );
    // The row follows at once: no longer unseen.
    await waitFor(() => expect(first!.dataset.unseen).toBeUndefined());
    await within(detail()).findByText('Reel/a.mov');
    expect(within(detail()).getByRole('button', { name: 'Download Reel/b.mov' })).toHaveProperty(
      'disabled',
      false,
    );
    expect(within(detail()).getByRole('button', { name: 'Download All' })).toHaveProperty(
      'disabled',
      false,
    );
    // Seen packages are not marked again.
    fireEvent.click(expiring!);
    await opened('Package older');
    expect(calls.filter((c) => c.route === api.inbox.markSeen)).toHaveLength(1);
  });

  it('dims an expired package and refuses its downloads', async () => {
    await openInbox([received('gone', { expired: true })]);
    await opened('Package gone');
    expect(detail().dataset.expired).toBe('true');
    within(detail()).getByText('Expired');
    expect(within(detail()).getByRole('button', { name: 'Download All' })).toHaveProperty(
      'disabled',
      true,
    );
  });

  it('warns when the sender removed the recipient, and hides the files', async () => {
    const { calls } = await openInbox([received('taken', { removed: true })]);
    await opened('Package taken');
    within(detail()).getByText(inboxMessages.removed);
    expect(within(detail()).queryByRole('list', { name: 'Files' })).toBeNull();
    expect(within(detail()).queryByRole('button', { name: 'Download All' })).toBeNull();
    expect(calls.some((c) => c.route === api.inbox.receivedFiles)).toBe(false);
  });

  it('loads more packages a page at a time', async () => {
    const first = Array.from({ length: 15 }, (_, i) => received(`p${i}`));
    const { calls } = await openInbox([], {
      answer: (route, args) => {
        if (route !== api.inbox.receivedList) return undefined;
        return argsOf(args).query!.page === 1
          ? page(first, { has_more: true, total: 16 })
          : page([received('p15')], { page: 2, total: 16 });
      },
    });
    await waitFor(() => expect(within(list()).getAllByTestId('package-row')).toHaveLength(15));
    fireEvent.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(within(list()).getAllByTestId('package-row')).toHaveLength(16));
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    const pages = calls
      .filter((c) => c.route === api.inbox.receivedList)
      .map((c) => argsOf(c.args).query);
    expect(pages).toEqual([
      { page: 1, contract_slug: 'demo', clear: true },
      { page: 2, contract_slug: 'demo' },
    ]);
  });

  it("loads more of a package's files a page at a time", async () => {
    const file = (i: number) => ({ user_path: `Reel/f${i}.dpx`, size: 10, object: `f${i}.dpx` });
    const { calls } = await openInbox([received('frames', { num_files: 101 })], {
      answer: (route, args) => {
        if (route !== api.inbox.receivedFiles) return undefined;
        return argsOf(args).query!.page === 1
          ? {
              ...files,
              files: Array.from({ length: 100 }, (_, i) => file(i)),
              total_files: 101,
              has_more: true,
            }
          : { ...files, files: [file(100)], total_files: 101, page: 2 };
      },
    });
    const pane = await opened('Package frames');
    const fileList = await within(pane).findByRole('list', { name: 'Files' });
    // A hundred rows render in deferred slices: seconds on a busy machine.
    await waitFor(() => expect(within(fileList).getAllByRole('listitem')).toHaveLength(100), {
      timeout: 10_000,
    });
    within(pane).getByText('Files (101)');
    fireEvent.click(within(pane).getByRole('button', { name: 'Load more' }));
    await within(pane).findByText('Reel/f100.dpx', {}, { timeout: 10_000 });
    expect(within(fileList).getAllByRole('listitem')).toHaveLength(101);
    expect(within(pane).queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(
      calls.filter((c) => c.route === api.inbox.receivedFiles).map((c) => argsOf(c.args).query),
    ).toEqual([{ page: 1 }, { page: 2 }]);
  });

  it('opens the package the address names and switches to its project', async () => {
    const other = received('elsewhere', {
      contract: { id: 2, slug: 'other', name: 'other project' },
    });
    const { store } = await openInbox([received('here'), other], {
      path: '/inbox/elsewhere',
      contracts: [contract('demo'), contract('other')],
    });
    await opened('Package elsewhere');
    await waitFor(() => expect(store.getState().projects.selectedSlug).toBe('other'));
  });

  it("says when the address names a package that can't be found", async () => {
    await openInbox([received('here')], { path: '/inbox/nothing' });
    await screen.findByText(inboxMessages.notFound);
  });

  it('offers to extend the expiry only when the contract allows and the package is expiring', async () => {
    const { calls } = await openInbox([
      received('soon', { expires_soon: true, can_extend_expiry: true }),
      received('later', { can_extend_expiry: true }),
      received('not-allowed', { expires_soon: true }),
    ]);
    const extend = within(await opened('Package soon')).getByRole('button', {
      name: 'Extend expiry',
    });
    fireEvent.click(extend);
    await screen.findByText('The expiry of this package has been extended.');
    expect(calls.filter((c) => c.route === api.inbox.extendExpiry)).toHaveLength(1);
    await waitFor(() =>
      expect(within(detail()).queryByRole('button', { name: 'Extend expiry' })).toBeNull(),
    );

    for (const name of ['later', 'not-allowed']) {
      fireEvent.click(within(list()).getByText(`Package ${name}`));
      await opened(`Package ${name}`);
      expect(within(detail()).queryByRole('button', { name: 'Extend expiry' })).toBeNull();
    }
  });

  it('offers the PIN lock for a locked package and keeps downloads closed until then', async () => {
    await openInbox([received('locked', { locked: true, pin_verified: true, mobile_hint: '123' })]);
    const unlock = within(await opened('Package locked')).getByRole('button', {
      name: 'Unlock with PIN',
    });
    expect(within(detail()).getByRole('button', { name: 'Download All' })).toHaveProperty(
      'disabled',
      true,
    );
    fireEvent.click(unlock);
    await screen.findByRole('dialog');
  });

  it("shows the unseen count on the sidebar's Inbox, as 9+ from 10", async () => {
    const many = Array.from({ length: 12 }, (_, i) => received(`u${i}`, { seen: i > 0 }));
    await openInbox(many, {
      withSidebar: true,
      answer: (route) =>
        route === api.inbox.receivedList ? page(many, { unseen: 12 }) : undefined,
    });
    await screen.findByLabelText('9+ unseen packages');
    cleanup();
    await openInbox([], {
      withSidebar: true,
      answer: (route) => (route === api.inbox.receivedList ? page([], { unseen: 3 }) : undefined),
    });
    await screen.findByLabelText('3 unseen packages');
  });

  it('keeps the open package when a new one arrives, which waits unseen for the person', async () => {
    let inbox = [received('older', { seen: false })];
    // The server remembers what was marked seen: later list pages say so.
    const seen = new Set<string>();
    const seenCalls = () =>
      calls.filter((c) => c.route === api.inbox.markSeen).map((c) => argsOf(c.args).params!.slug);
    const { calls, store } = await openInbox([], {
      withSidebar: true,
      answer: (route, args) => {
        const slug = argsOf(args ?? {}).params?.slug;
        const now = inbox.map((p) => (seen.has(p.slug) ? { ...p, seen: true } : p));
        if (route === api.inbox.receivedList) return page(now);
        if (route === api.inbox.received) return now.find((p) => p.slug === slug);
        if (route !== api.inbox.markSeen) return undefined;
        seen.add(slug!);
        return { ...now.find((p) => p.slug === slug)!, seen: true };
      },
    });
    await opened('Package older');
    await waitFor(() => expect(seenCalls()).toEqual(['older']));

    inbox = [received('newer', { seen: false }), ...inbox];
    applyRealtimeMessage(store.dispatch, {
      type: 'package_received',
      package: { slug: 'newer', contract_slug: 'demo' },
    });
    await waitFor(() => expect(within(list()).getAllByTestId('package-row')).toHaveLength(2), {
      timeout: 10_000,
    });
    await screen.findByLabelText('1 unseen packages');
    const [arrived, reading] = within(list()).getAllByTestId('package-row');
    expect(arrived!.dataset.unseen).toBe('true');
    expect(reading!.getAttribute('aria-current')).toBe('true');
    within(detail()).getByRole('heading', { name: 'Package older' });
    expect(seenCalls()).toEqual(['older']);

    // Picking it is what opens it and marks it seen.
    fireEvent.click(arrived!);
    await opened('Package newer');
    await waitFor(() => expect(seenCalls()).toEqual(['older', 'newer']));
  });
});
