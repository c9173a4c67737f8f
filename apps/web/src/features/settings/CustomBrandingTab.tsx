import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import type { Contract } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { useBrandingQuery } from '../branding/branding-api';
import { brandingMessages, emptyBranding } from '../branding/branding';
import { BrandingForm } from './BrandingForm';

/** The Custom Branding tab: loads the project's branding (none yet reads as an empty record). */
export function CustomBrandingTab({ contract, index }: { contract: Contract; index: number }) {
  const { data, error, isLoading } = useBrandingQuery({ params: { contract: contract.slug } });

  if (isLoading) return <CircularProgress aria-label="Loading custom branding" />;
  const unsaved = asApiError(error)?.status === 404;
  if (error && !unsaved) return <Alert severity="error">{brandingMessages.pageError}</Alert>;
  return <BrandingForm contract={contract} saved={data ?? emptyBranding(contract.slug, index)} />;
}
