import { Fragment, type ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import ArrowBack from '@mui/icons-material/ArrowBack';
import { firstErrorMessage } from '../../app/api-client';
import { packageScreen } from './package-screen';
import { usePaneLayout } from './PackagePanes';

export interface PackageDetailPaneProps<P> {
  /** The package the list selected; none before there is one to choose. */
  slug: string | undefined;
  pkg: P | undefined;
  loading: boolean;
  error: unknown;
  /** The package itself, once loaded; mounted afresh for each package. */
  children: (pkg: P) => ReactNode;
}

/**
 * The right pane of Inbox and Sent: the selected package (dimmed once expired), a spinner while
 * it loads, why it could not be shown, or a placeholder before one is chosen.
 */
export function PackageDetailPane<P extends { expired: boolean }>(
  props: PackageDetailPaneProps<P>,
) {
  const { slug, pkg } = props;
  const { shown, narrow, list } = usePaneLayout('detail');
  if (!shown) return null;
  if (!slug) {
    return (
      <Paper
        sx={{ flex: 1, p: 3, display: 'flex', alignItems: 'center', justifyContent: 'center' }}
        aria-label="Package details"
      >
        <Typography color="text.secondary">
          This is where you'll find your package information
        </Typography>
      </Paper>
    );
  }
  return (
    <Paper
      sx={{
        flex: 1,
        minWidth: 0,
        p: { xs: 2, md: 3 },
        overflowY: 'auto',
        minHeight: 0,
        opacity: pkg?.expired ? 0.6 : 1,
      }}
      component="section"
      aria-label="Package details"
      data-expired={pkg?.expired || undefined}
    >
      {narrow && (
        <Button
          component={RouterLink}
          to={list.to}
          startIcon={<ArrowBack />}
          sx={{ mb: 1, ml: -1 }}
        >
          Back to {list.title}
        </Button>
      )}
      {pkg ? (
        <Fragment key={slug}>{props.children(pkg)}</Fragment>
      ) : props.loading ? (
        <CircularProgress aria-label="Loading the package" />
      ) : props.error ? (
        <DetailFailure error={props.error} />
      ) : null}
    </Paper>
  );
}

/** Why a package could not be shown: not found, or the server's reason. */
function DetailFailure({ error }: { error: unknown }) {
  const status = (error as { status?: number }).status;
  if (status === 404) return <Alert severity="warning">{packageScreen.notFound}</Alert>;
  return (
    <Alert severity="error">
      <AlertTitle>{packageScreen.notAvailableTitle}</AlertTitle>
      {firstErrorMessage(error, packageScreen.notAvailable)}
    </Alert>
  );
}
