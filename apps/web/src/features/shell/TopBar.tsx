import Box from '@mui/material/Box';
import IconButton from '@mui/material/IconButton';
import Typography from '@mui/material/Typography';
import Menu from '@mui/icons-material/Menu';
import { useAppSelector } from '../../app/hooks';
import { ProjectAvatar } from '../../components/ProjectAvatar';
import { brandedName } from '../branding/branding';
import { selectBranding } from '../branding/branding-api';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';

/**
 * The bar above the screens. With a single project there is no project strip, so the project's
 * avatar and name are shown here; with several, the selected project's name. The name is the
 * branded one where an admin saved it. `onOpenMenu`, on a narrow window, puts the button that
 * opens the menu (the sidebar) first.
 */
export function TopBar({ onOpenMenu }: { onOpenMenu?: () => void }) {
  const contracts = useAppSelector(selectContracts);
  const contract = useAppSelector(selectSelectedContract);
  const branding = useAppSelector((s) => selectBranding(s, contract?.slug ?? null));
  if (!contract) return null;
  const single = contracts.length === 1;

  return (
    <Box
      component="header"
      sx={{
        height: 64,
        flexShrink: 0,
        px: { xs: 1.5, md: 3 },
        display: 'flex',
        alignItems: 'center',
        gap: 1.5,
        borderBottom: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
      }}
    >
      {onOpenMenu && (
        <IconButton aria-label="Open the menu" edge="start" onClick={onOpenMenu}>
          <Menu />
        </IconButton>
      )}
      {single && <ProjectAvatar name={contract.name} index={0} branding={branding} size={32} />}
      <Typography
        variant="subtitle1"
        component="p"
        noWrap
        sx={{ fontWeight: 600, minWidth: 0 }}
        data-testid="current-project"
      >
        {brandedName(contract.name, branding)}
      </Typography>
    </Box>
  );
}
