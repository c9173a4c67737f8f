import { describe, expect, it, vi } from 'vitest';
import { api, type ReceivedPage } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { inboxApi } from '../inbox/inbox-api';
import { sentApi } from '../sent/sent-api';
import { applyRealtimeMessage } from './use-realtime';

const emptyPage: ReceivedPage = {
  packages: [],
  page: 1,
  has_more: false,
  unseen: 0,
  unseen_by_contract: {},
} as unknown as ReceivedPage;

describe('a realtime event in the app', () => {
  it('refetches the open Inbox list (and its unseen badge) when a package is received', async () => {
    const { store, calls } = storeAnswering(() => emptyPage);
    const inboxAsks = () => calls.filter((c) => c.route === api.inbox.receivedList).length;
    // The Inbox screen is open on a project: its list is subscribed.
    const subscription = store.dispatch(inboxApi.endpoints.receivedList.initiate({ slug: 'c1' }));
    await subscription;
    expect(inboxAsks()).toBe(1);

    applyRealtimeMessage(store.dispatch, {
      type: 'package_received',
      package: { slug: 'p1', contract_slug: 'c1' },
    });
    await vi.waitFor(() => expect(inboxAsks()).toBe(2));

    // The greeting changes nothing.
    applyRealtimeMessage(store.dispatch, { type: 'user_connected', email: 'a@example.com' });
    await new Promise((r) => setTimeout(r, 20));
    expect(inboxAsks()).toBe(2);
    subscription.unsubscribe();
  });

  it("refetches an open Sent detail's download history when its package is downloaded", async () => {
    const { store, calls } = storeAnswering(() => ({ files: [], recipients: [] }));
    const historyAsks = () =>
      calls.filter((c) => c.route === api.downloadHistory.packageHistory).length;
    // The sender has the package's history open.
    const subscription = store.dispatch(
      sentApi.endpoints.downloadHistory.initiate({ params: { slug: 'p1' } }),
    );
    await subscription;
    expect(historyAsks()).toBe(1);

    applyRealtimeMessage(store.dispatch, { type: 'package_downloaded', package: { slug: 'p1' } });
    await vi.waitFor(() => expect(historyAsks()).toBe(2));
    subscription.unsubscribe();
  });
});
