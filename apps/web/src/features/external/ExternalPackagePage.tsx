import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import LockIcon from '@mui/icons-material/Lock';
import LockOpenIcon from '@mui/icons-material/LockOpen';
import { inboxMessages, type ExternalPackage, formatSize } from '@filerunner/protocol';
import { asApiError, firstErrorMessage } from '../../app/api-client';
import { Logo } from '../../components/Logo';
import { MessagePage } from '../../components/MessagePage';
import { Splash } from '../../components/Splash';
import { useToast } from '../../components/toast-context';
import { DownloadAllButton } from '../packages/DownloadAllButton';
import { ExpiryChips } from '../packages/ExpiryChips';
import { DownloadPanel } from '../transfers/DownloadPanel';
import { useKeptDownloads } from '../transfers/use-kept-downloads';
import { useDateTimeFormat } from '../../app/time-zone';
import { formatExpiry } from '../packages/package-format';
import { LazyPinDialog } from '../pin/LazyPinDialog';
import { ExternalFileList } from './ExternalFileList';
import { useExternalPackageQuery } from './external-api';
import { useExternalDownloads } from './use-external-downloads';

export const externalPageText = {
  couldNotLoad: 'We could not load that package',
  invalidFilenames:
    'Some file names in this package are not valid on every system, so the package downloads as one .tar file.',
  pinVerified: 'PIN verified: you can download the files now.',
} as const;

/** The external page's dates arrive as epoch seconds. */
const isoOf = (epochSeconds: number) => new Date(epochSeconds * 1000).toISOString();

/**
 * /inbox/external/:slug?key=…: a package opened by the mailed link, without an account. The key
 * is the credential of every call; a package that asks for a PIN opens its downloads once the
 * PIN texted to the recipient is entered. Without a slug or a key: a package not found.
 */
export function ExternalPackagePage(props: { slug: string; accessKey: string | null }) {
  const { slug, accessKey } = props;
  if (!slug || !accessKey) return <MessagePage title={inboxMessages.notFound} />;
  return <PackageLoader slug={slug} accessKey={accessKey} />;
}

function PackageLoader({ slug, accessKey }: { slug: string; accessKey: string }) {
  const { data, error, isLoading, refetch } = useExternalPackageQuery({
    params: { slug },
    query: { page: 1, key: accessKey },
  });
  // The same full-height brand as index.html and the route's own fallback: the page then takes
  // its place from the top, with nothing on screen moving on the way.
  if (isLoading) return <Splash />;
  if (!data) {
    const failed = asApiError(error);
    if (failed?.status === 404) return <MessagePage title={inboxMessages.notFound} />;
    return (
      <MessagePage title={inboxMessages.notAvailable}>
        {firstErrorMessage(error, externalPageText.couldNotLoad)}
      </MessagePage>
    );
  }
  return <ExternalPackageView pkg={data} accessKey={accessKey} onUnlocked={refetch} />;
}

function ExternalPackageView(props: {
  pkg: ExternalPackage;
  accessKey: string;
  onUnlocked: () => unknown;
}) {
  const { pkg, accessKey } = props;
  const [pinOpen, setPinOpen] = useState(false);
  const toast = useToast();
  const downloads = useExternalDownloads(pkg, accessKey);
  // A download from this link that an earlier page left unfinished is offered again.
  useKeptDownloads(`link:${pkg.slug}`);
  const canDownload = !pkg.expired && !pkg.locked;

  return (
    // The download queue's panel at the right once something downloads.
    <Box sx={{ display: 'flex', minHeight: '100vh' }}>
      <Box component="main" sx={{ p: 3, maxWidth: 1280, mx: 'auto', flex: 1, minWidth: 0 }}>
        <Logo />
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={3} sx={{ mt: 3 }}>
          <Paper variant="outlined" sx={{ p: 3, flex: '0 0 38%' }} component="section">
            <PackageSummary pkg={pkg} />
          </Paper>
          <Paper variant="outlined" sx={{ p: 3, flex: 1, minWidth: 0 }} component="section">
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
              <DownloadAllButton
                disabled={!canDownload || downloads.busy}
                folderChoices={downloads.folderChoices}
                invalidFilenames={pkg.invalid_filenames}
                onChoose={(method) => void downloads.downloadAll(method)}
              />
              {pkg.pin_verified &&
                (pkg.locked ? (
                  <Button
                    variant="outlined"
                    startIcon={<LockIcon />}
                    disabled={pkg.expired}
                    onClick={() => setPinOpen(true)}
                  >
                    Unlock with PIN
                  </Button>
                ) : (
                  <Button variant="outlined" startIcon={<LockOpenIcon />} disabled>
                    PIN verified
                  </Button>
                ))}
              <Typography color="text.secondary">
                {pkg.num_files === 1 ? '1 file' : `${pkg.num_files} files`}, {formatSize(pkg.bytes)}
              </Typography>
            </Stack>
            {pkg.expired ? (
              <Alert severity="warning" sx={{ mt: 2 }}>
                {inboxMessages.expired}
              </Alert>
            ) : (
              pkg.locked && (
                <Alert severity="info" sx={{ mt: 2 }}>
                  {inboxMessages.locked}
                </Alert>
              )
            )}
            <Divider sx={{ my: 2 }} />
            <ExternalFileList
              // A new list once unlocked: the locked answer had no files to page through.
              key={String(pkg.locked)}
              slug={pkg.slug}
              accessKey={accessKey}
              firstPage={pkg}
              canDownload={canDownload && !downloads.busy}
              onDownload={(file) => void downloads.downloadFile(file)}
            />
          </Paper>
        </Stack>
        <LazyPinDialog
          open={pinOpen}
          slug={pkg.slug}
          accessKey={accessKey}
          mobileHint={pkg.mobile_hint}
          onClose={() => setPinOpen(false)}
          onVerified={() => {
            toast({ severity: 'success', message: externalPageText.pinVerified });
            props.onUnlocked();
          }}
        />
      </Box>
      <DownloadPanel />
    </Box>
  );
}

function PackageSummary({ pkg }: { pkg: ExternalPackage }) {
  const formatDateTime = useDateTimeFormat();
  const expires = isoOf(pkg.expires_date);
  return (
    <Stack spacing={2}>
      <Box>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography variant="h5" component="h1" sx={{ wordBreak: 'break-word' }}>
            {pkg.name}
          </Typography>
          <ExpiryChips expired={pkg.expired} expiresSoon={pkg.expires_soon} />
        </Stack>
        <Typography color="text.secondary">From {pkg.sender.name}</Typography>
        <Typography color="text.secondary">Project {pkg.contract.name}</Typography>
      </Box>
      {pkg.invalid_filenames && (
        <Alert severity="warning">{externalPageText.invalidFilenames}</Alert>
      )}
      <Box component="dl" sx={{ m: 0, '& dt': { fontWeight: 600 }, '& dd': { ml: 0, mb: 1 } }}>
        <dt>Access period</dt>
        <dd>Valid from {formatDateTime(isoOf(pkg.valid_date))}</dd>
        <dd>
          Expires {formatDateTime(expires)}{' '}
          <Typography component="span" color={pkg.expired ? 'error' : 'text.secondary'}>
            ({formatExpiry(expires)})
          </Typography>
        </dd>
      </Box>
      {pkg.message && (
        <Box>
          <Typography sx={{ fontWeight: 600 }}>Message</Typography>
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
            {pkg.message}
          </Typography>
        </Box>
      )}
    </Stack>
  );
}
