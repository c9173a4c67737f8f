import { useDeferredValue, useEffect, useRef, useState } from 'react';
import { Link as RouterLink, useLocation, useParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import Link from '@mui/material/Link';
import { useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-api';
import { routePrefix } from '../shell/navigation';
import { PackageDetailPane } from '../packages/PackageDetailPane';
import { PackageListPane } from '../packages/PackageListPane';
import { PackagePanes } from '../packages/PackagePanes';
import { PackageRow } from '../packages/PackageRow';
import { packageScreen } from '../packages/package-screen';
import { usePackageContract } from '../packages/use-package-contract';
import {
  usePagedList,
  useMarkSeenMutation,
  useReceivedListInfiniteQuery,
  useReceivedPackageQuery,
} from './inbox-api';
import { ReceivedPackageView } from './ReceivedDetail';

/**
 * /inbox/:slug? — received packages of the selected project on the left, one on the right: the
 * one the address names, else the newest when the Inbox opened. Opening a package marks it seen.
 */
export function InboxPage() {
  const contract = useAppSelector(selectSelectedContract);
  const location = useLocation();
  const prefix = routePrefix(location.pathname);
  const { slug: urlSlug } = useParams();
  const list = useReceivedListInfiniteQuery(contract ? { slug: contract.slug } : skipToken, {
    // Opening the screen or picking another project reads the list afresh.
    refetchOnMountOrArgChange: true,
  });
  const { items: packages, hasMore, loaded } = usePagedList(list.data, (p) => p.packages);
  const opening = useOpeningPackage(contract?.slug, location.key, packages[0]);
  const selectedSlug = urlSlug ?? opening;
  const detail = useReceivedPackageQuery(
    selectedSlug ? { params: { slug: selectedSlug } } : skipToken,
  );
  // Deferred as the list is (usePagedList): the package's pane renders in slices.
  const pkg = useDeferredValue(detail.currentData);
  usePackageContract(urlSlug, pkg?.contract.slug, `${prefix}/inbox`);
  useMarkSeenOnOpen(pkg?.slug, pkg ? !pkg.seen : false);

  return (
    <PackagePanes opened={urlSlug !== undefined} list={{ to: `${prefix}/inbox`, title: 'Inbox' }}>
      <PackageListPane
        title="Inbox"
        label="Received packages"
        loading={!loaded && !list.isError}
        error={list.isError}
        hasMore={hasMore}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        empty={
          <>
            {packageScreen.receivedEmpty}{' '}
            {contract?.permissions.send && (
              <>
                Why not{' '}
                <Link component={RouterLink} to={`${prefix}/share`}>
                  share
                </Link>{' '}
                one?
              </>
            )}
          </>
        }
        rows={packages.map((p) => (
          <PackageRow
            key={p.slug}
            to={`${prefix}/inbox/${p.slug}`}
            name={p.name}
            who={p.sender?.name ?? 'a removed user'}
            dateSent={p.date_sent}
            selected={p.slug === selectedSlug}
            unseen={!p.seen}
            expired={p.expired}
            expiresSoon={p.expires_soon}
            removed={p.removed}
          />
        ))}
      />
      <PackageDetailPane
        slug={selectedSlug}
        pkg={pkg}
        loading={detail.isFetching && !pkg}
        error={detail.error}
      >
        {(shown) => <ReceivedPackageView pkg={shown} />}
      </PackageDetailPane>
    </PackagePanes>
  );
}

/**
 * The package the Inbox shows when the address names none: the newest one when the list first
 * loads for this visit (a navigation to /inbox) and project. It is kept while newer packages
 * arrive by realtime, so a new one neither takes over the pane the person is reading nor is
 * marked seen before they pick it; it waits in the list, unseen, raising the badge.
 */
function useOpeningPackage(
  contractSlug: string | undefined,
  visit: string,
  newest: { slug: string; contract: { slug: string } } | undefined,
): string | undefined {
  const [opened, setOpened] = useState<{ key: string; slug: string } | null>(null);
  const key = `${contractSlug}/${visit}`;
  // While another project's list is still shown (the new one loading), nothing is chosen yet.
  const candidate = newest?.contract.slug === contractSlug ? newest?.slug : undefined;
  const chosen = opened?.key === key ? opened.slug : undefined;
  // Kept while rendering (as React advises for state that follows a prop), not in an effect.
  if (!chosen && candidate) setOpened({ key, slug: candidate });
  return chosen ?? candidate;
}

/** Marks a package seen once when it is opened unseen; a failure leaves it unseen, no more. */
function useMarkSeenOnOpen(slug: string | undefined, unseen: boolean) {
  const [markSeen] = useMarkSeenMutation();
  const marked = useRef<string | null>(null);
  useEffect(() => {
    if (!slug || !unseen || marked.current === slug) return;
    marked.current = slug;
    void markSeen({ params: { slug } });
  }, [slug, unseen, markSeen]);
}
