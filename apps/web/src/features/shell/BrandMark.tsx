import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../app/hooks';
import { ProjectAvatar } from '../../components/ProjectAvatar';
import { selectBranding } from '../branding/branding-slice';

/**
 * The head of the sidebar in the /branding layout: the selected project's own logo (or its
 * avatar) and its branded name, in place of the FileRunner mark.
 */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  const { contracts, selectedSlug } = useAppSelector((s) => s.projects);
  const branding = useAppSelector((s) => selectBranding(s, selectedSlug));
  const index = contracts.findIndex((c) => c.slug === selectedSlug);
  const contract = contracts[index];
  if (!contract) return null;
  const name = branding?.name || contract.name;

  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}
      data-testid="brand-mark"
    >
      <ProjectAvatar name={contract.name} index={index} branding={branding} size={40} />
      {!compact && (
        <Typography variant="subtitle1" component="span" noWrap sx={{ fontWeight: 700 }}>
          {name}
        </Typography>
      )}
    </Box>
  );
}
