import { useDeferredValue } from 'react';
import { useLocation, useParams } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppSelector } from '../../app/hooks';
import { usePagedList } from '../inbox/inbox-api';
import { selectSelectedContract } from '../projects/projects-api';
import { routePrefix } from '../shell/navigation';
import { PackageDetailPane } from '../packages/PackageDetailPane';
import { PackageListPane } from '../packages/PackageListPane';
import { PackagePanes } from '../packages/PackagePanes';
import { PackageRow } from '../packages/PackageRow';
import { packageScreen } from '../packages/package-screen';
import { usePackageContract } from '../packages/use-package-contract';
import { SentPackageView } from './SentDetail';
import { useSentListInfiniteQuery, useSentPackageQuery } from './sent-api';
import { recipientsSummary } from './sent-recipients';

/** /sent/:slug? — packages the user sent in the selected project, and one with its recipients. */
export function SentPage() {
  const contract = useAppSelector(selectSelectedContract);
  const prefix = routePrefix(useLocation().pathname);
  const { slug: urlSlug } = useParams();
  const list = useSentListInfiniteQuery(contract ? { slug: contract.slug } : skipToken, {
    // Opening the screen or picking another project reads the list afresh.
    refetchOnMountOrArgChange: true,
  });
  const { items: packages, hasMore, loaded } = usePagedList(list.data, (p) => p.packages);
  const selectedSlug = urlSlug ?? packages[0]?.slug;
  const detail = useSentPackageQuery(selectedSlug ? { params: { slug: selectedSlug } } : skipToken);
  // Deferred as the list is (usePagedList): the package's pane renders in slices.
  const pkg = useDeferredValue(detail.currentData);
  usePackageContract(urlSlug, pkg?.contract.slug, `${prefix}/sent`);

  return (
    <PackagePanes opened={urlSlug !== undefined} list={{ to: `${prefix}/sent`, title: 'Sent' }}>
      <PackageListPane
        title="Sent"
        label="Sent packages"
        loading={!loaded && !list.isError}
        error={list.isError}
        hasMore={hasMore}
        loadingMore={list.isFetchingNextPage}
        onLoadMore={() => void list.fetchNextPage()}
        empty={packageScreen.sentEmpty}
        rows={packages.map((p) => (
          <PackageRow
            key={p.slug}
            to={`${prefix}/sent/${p.slug}`}
            name={p.name}
            who={`To ${recipientsSummary(p.recipients)}`}
            dateSent={p.date_sent}
            selected={p.slug === selectedSlug}
            expired={p.expired}
            expiresSoon={p.expires_soon}
          />
        ))}
      />
      <PackageDetailPane
        slug={selectedSlug}
        pkg={pkg}
        loading={detail.isFetching && !pkg}
        error={detail.error}
      >
        {(shown) => <SentPackageView pkg={shown} />}
      </PackageDetailPane>
    </PackagePanes>
  );
}
