import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import PersonAdd from '@mui/icons-material/PersonAdd';
import type { SentPackage } from '@filerunner/protocol';
import { useAppSelector } from '../../app/hooks';
import { filesOf, usePagedList } from '../inbox/inbox-api';
import { DownloadAllButton } from '../packages/DownloadAllButton';
import { PackageFileList } from '../packages/PackageFileList';
import { PackageSummary } from '../packages/PackageSummary';
import { packageScreen } from '../packages/package-screen';
import { usePackageDownloads } from '../packages/use-package-downloads';
import { selectContracts } from '../projects/projects-api';
import { AddRecipientsDialog } from './AddRecipientsDialog';
import { SentRecipients } from './SentRecipients';
import {
  useSentFileGrantMutation,
  useSentFilesInfiniteQuery,
  useSentPackageGrantMutation,
} from './sent-api';

/** One sent package in Sent's right pane: its recipients and their downloads, and its files. */
export function SentPackageView({ pkg }: { pkg: SentPackage }) {
  const [adding, setAdding] = useState(false);
  // The package's own project, which decides the PIN rule and ad-hoc addresses for new recipients.
  const contract = useAppSelector(selectContracts).find((c) => c.slug === pkg.contract.slug);
  const files = useSentFilesInfiniteQuery(pkg.slug);
  const { items, hasMore, last, loaded } = usePagedList(files.data, filesOf);
  const [packageGrant, packageGranting] = useSentPackageGrantMutation();
  const [fileGrant] = useSentFileGrantMutation();
  // The sender's own copy, as a recipient downloads it: no PIN (the PIN is the recipients'
  // check), and the server refuses it once the package has expired.
  const canDownload = !pkg.expired;
  const downloads = usePackageDownloads({
    slug: pkg.slug,
    name: pkg.name,
    invalidFilenames: pkg.invalid_filenames,
    packageGrant: () => packageGrant({ params: { slug: pkg.slug } }).unwrap(),
    fileGrant: (file) => fileGrant({ params: { slug: pkg.slug, '*': file.user_path } }).unwrap(),
    grantsBy: { kind: 'sent' },
    failed: packageScreen.downloadFailed,
  });

  return (
    <>
      <PackageSummary
        pkg={pkg}
        actions={
          <>
            <DownloadAllButton
              disabled={!canDownload || packageGranting.isLoading}
              folderChoices={downloads.folderChoices}
              invalidFilenames={pkg.invalid_filenames}
              onChoose={(method) => void downloads.downloadAll(method)}
            />
            <Button
              variant="outlined"
              startIcon={<PersonAdd />}
              disabled={pkg.expired || !contract}
              onClick={() => setAdding(true)}
            >
              Add recipients
            </Button>
          </>
        }
      />
      <SentRecipients pkg={pkg} />
      <Box>
        <PackageFileList
          files={items}
          total={last?.total_files ?? pkg.num_files}
          loading={!loaded && files.isFetching}
          hasMore={hasMore}
          loadingMore={files.isFetchingNextPage}
          onLoadMore={() => void files.fetchNextPage()}
          onDownload={(file) => void downloads.downloadFile(file)}
          downloadDisabled={!canDownload}
        />
      </Box>
      {contract && (
        <AddRecipientsDialog
          open={adding}
          pkg={pkg}
          contract={contract}
          onClose={() => setAdding(false)}
        />
      )}
    </>
  );
}
