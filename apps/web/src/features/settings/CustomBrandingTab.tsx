import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import CircularProgress from '@mui/material/CircularProgress';
import type { Branding, Contract } from '@filerunner/protocol';
import { useApi, useAppDispatch } from '../../app/hooks';
import { brandingApi } from '../branding/branding-api';
import { brandingReceived } from '../branding/branding-slice';
import { brandingMessages, emptyBranding } from '../branding/branding';
import { BrandingForm } from './BrandingForm';

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; branding: Branding };

/** The Custom Branding tab: loads the project's branding (none yet reads as an empty record). */
export function CustomBrandingTab({ contract, index }: { contract: Contract; index: number }) {
  const api = useApi();
  const dispatch = useAppDispatch();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    brandingApi.one(api, contract.slug).then(
      (branding) => {
        if (!current) return;
        if (branding) dispatch(brandingReceived(branding));
        setLoad({ state: 'loaded', branding: branding ?? emptyBranding(contract.slug, index) });
      },
      () => {
        if (current) setLoad({ state: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [api, dispatch, contract.slug, index]);

  if (load.state === 'loading') return <CircularProgress aria-label="Loading custom branding" />;
  if (load.state === 'failed') return <Alert severity="error">{brandingMessages.pageError}</Alert>;
  return <BrandingForm contract={contract} saved={load.branding} />;
}
