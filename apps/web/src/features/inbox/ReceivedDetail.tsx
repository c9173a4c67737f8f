import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Tooltip from '@mui/material/Tooltip';
import Lock from '@mui/icons-material/Lock';
import Update from '@mui/icons-material/Update';
import type { PackageFile, ReceivedPackage } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import { firstErrorMessage } from '../../app/api-client';
import { useAppDispatch } from '../../app/hooks';
import { useToast } from '../../components/toast-context';
import { DownloadAllButton } from '../packages/DownloadAllButton';
import { PackageFileList } from '../packages/PackageFileList';
import { PackageSummary } from '../packages/PackageSummary';
import { packageScreen } from '../packages/package-screen';
import { usePackageDownloads } from '../packages/use-package-downloads';
import { LazyPinDialog } from '../pin/LazyPinDialog';
import {
  filesOf,
  usePagedList,
  useDeliveryReceiptMutation,
  useReceiptChallengeMutation,
  useExtendExpiryMutation,
  useFileDownloadGrantMutation,
  usePackageDownloadGrantMutation,
  useReceivedFilesInfiniteQuery,
} from './inbox-api';

/** One received package in the Inbox's right pane: its files and what can be done with it. */
export function ReceivedPackageView({ pkg }: { pkg: ReceivedPackage }) {
  const dispatch = useAppDispatch();
  const toast = useToast();
  const [pinOpen, setPinOpen] = useState(false);
  const [extend, extending] = useExtendExpiryMutation();
  const [packageGrant, packageGranting] = usePackageDownloadGrantMutation();
  const [fileGrant] = useFileDownloadGrantMutation();
  const [receiptChallenge] = useReceiptChallengeMutation();
  const [deliveryReceipt] = useDeliveryReceiptMutation();
  const canDownload = !pkg.expired && !pkg.removed && !pkg.locked;
  const canExtend = pkg.can_extend_expiry && pkg.expires_soon && !pkg.expired && !pkg.removed;

  const downloads = usePackageDownloads({
    slug: pkg.slug,
    name: pkg.name,
    invalidFilenames: pkg.invalid_filenames,
    packageGrant: () => packageGrant({ params: { slug: pkg.slug } }).unwrap(),
    fileGrant: (file) => fileGrant({ params: { slug: pkg.slug, '*': file.user_path } }).unwrap(),
    receipt: {
      challenge: () => receiptChallenge({ params: { slug: pkg.slug } }).unwrap(),
      issue: (body) => deliveryReceipt({ params: { slug: pkg.slug }, body }).unwrap(),
    },
    grantsBy: { kind: 'received' },
    failed: packageScreen.downloadFailed,
  });
  const extendExpiry = async () => {
    try {
      await extend({ params: { slug: pkg.slug } }).unwrap();
      toast({ severity: 'success', message: packageScreen.extended });
    } catch (failure) {
      toast({ severity: 'error', message: firstErrorMessage(failure, packageScreen.extendFailed) });
    }
  };

  const actions = pkg.removed ? null : (
    <>
      <DownloadAllButton
        disabled={!canDownload || packageGranting.isLoading}
        folderChoices={downloads.folderChoices}
        invalidFilenames={pkg.invalid_filenames}
        onChoose={(method) => void downloads.downloadAll(method)}
      />
      {pkg.locked && !pkg.expired && (
        <Tooltip
          describeChild
          title={pkg.mobile_hint ? `A PIN goes to your mobile ending ${pkg.mobile_hint}` : ''}
        >
          <Button variant="outlined" startIcon={<Lock />} onClick={() => setPinOpen(true)}>
            Unlock with PIN
          </Button>
        </Tooltip>
      )}
      {canExtend && (
        <Button
          variant="outlined"
          startIcon={<Update />}
          disabled={extending.isLoading}
          onClick={() => void extendExpiry()}
        >
          Extend expiry
        </Button>
      )}
    </>
  );

  return (
    <>
      <PackageSummary pkg={pkg} actions={actions} />
      {pkg.removed ? (
        <Alert severity="warning" sx={{ mt: 3 }} data-testid="removed-access">
          {packageScreen.removedAccess}
        </Alert>
      ) : (
        <ReceivedFiles
          slug={pkg.slug}
          total={pkg.num_files}
          downloadDisabled={!canDownload}
          onDownload={(file) => void downloads.downloadFile(file)}
        />
      )}
      {pkg.locked && (
        <LazyPinDialog
          slug={pkg.slug}
          open={pinOpen}
          mobileHint={pkg.mobile_hint}
          onClose={() => setPinOpen(false)}
          onVerified={() => {
            setPinOpen(false);
            // Unlocked: the package and its file list are read again, now open.
            dispatch(apiSlice.util.invalidateTags(['Received']));
          }}
        />
      )}
    </>
  );
}

function ReceivedFiles(props: {
  slug: string;
  total: number;
  downloadDisabled: boolean;
  onDownload: (file: PackageFile) => void;
}) {
  const files = useReceivedFilesInfiniteQuery(props.slug);
  const { items, hasMore, last, loaded } = usePagedList(files.data, filesOf);
  return (
    <Box>
      <PackageFileList
        files={items}
        total={last?.total_files ?? props.total}
        loading={!loaded && files.isFetching}
        hasMore={hasMore}
        loadingMore={files.isFetchingNextPage}
        onLoadMore={() => void files.fetchNextPage()}
        onDownload={props.onDownload}
        downloadDisabled={props.downloadDisabled}
      />
    </Box>
  );
}
