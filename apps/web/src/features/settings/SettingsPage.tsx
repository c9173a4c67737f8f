import { useEffect, useRef } from 'react';
import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';
import { contractSelected } from '../projects/projects-slice';
import { routePrefix } from '../shell/navigation';
import { CustomBrandingTab } from './CustomBrandingTab';
import { GeneralSettingsTab } from './GeneralSettingsTab';
import { settingsTabsOf } from './settings-tabs';

/**
 * /settings/:slug/:tab — a project's settings (admins). Without a slug it opens the selected
 * project; an unknown tab, or Custom Branding where branding is disabled, opens General. The
 * address and the project selector follow each other.
 */
export function SettingsPage() {
  const { slug, tab } = useParams();
  const prefix = routePrefix(useLocation().pathname);
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const contracts = useAppSelector(selectContracts);
  const selectedSlug = useAppSelector(selectSelectedContract)?.slug ?? null;
  const index = contracts.findIndex((c) => c.slug === slug);
  const contract = contracts[index];
  const seenSelection = useRef(selectedSlug);

  useEffect(() => {
    // A project picked in the selector moves the page to it; a project named in the address
    // (a link, a typed URL) becomes the selected one.
    const selectionMoved = seenSelection.current !== selectedSlug;
    seenSelection.current = selectedSlug;
    if (!slug || index < 0 || !selectedSlug || slug === selectedSlug) return;
    if (selectionMoved) navigate(`${prefix}/settings/${selectedSlug}/${tab ?? 'general'}`);
    else dispatch(contractSelected(slug));
  }, [dispatch, navigate, prefix, slug, tab, index, selectedSlug]);

  if (!contract) return <Navigate to={`${prefix}/settings/${selectedSlug}/general`} replace />;
  if (!contract.permissions.admin) return <Navigate to={`${prefix}/inbox`} replace />;
  const tabs = settingsTabsOf(contract);
  const current = tabs.find((t) => t.slug === tab);
  if (!current) return <Navigate to={`${prefix}/settings/${contract.slug}/general`} replace />;

  return (
    <Box sx={{ p: { xs: 2, md: 4 }, maxWidth: 960 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        Settings
      </Typography>
      <Tabs
        value={current.slug}
        onChange={(_event, next: string) => navigate(`${prefix}/settings/${contract.slug}/${next}`)}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
      >
        {tabs.map((t) => (
          <Tab key={t.slug} value={t.slug} label={t.label} id={`settings-tab-${t.slug}`} />
        ))}
      </Tabs>
      <Paper
        sx={{ p: { xs: 2, md: 3 } }}
        role="tabpanel"
        aria-labelledby={`settings-tab-${current.slug}`}
      >
        {current.slug === 'general' ? (
          <GeneralSettingsTab key={contract.slug} contract={contract} />
        ) : (
          <CustomBrandingTab key={contract.slug} contract={contract} index={index} />
        )}
      </Paper>
    </Box>
  );
}
