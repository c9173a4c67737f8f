import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useAppSelector } from '../../app/hooks';
import { ProjectAvatar } from '../../components/ProjectAvatar';
import { brandedName } from '../branding/branding';
import { selectAvatarTexts, selectBranding } from '../branding/branding-api';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';

/**
 * The head of the sidebar in the /branding layout: the selected project's own logo (or its
 * avatar) and its branded name, in place of the FileRunner mark.
 */
export function BrandMark({ compact = false }: { compact?: boolean }) {
  const contracts = useAppSelector(selectContracts);
  const contract = useAppSelector(selectSelectedContract);
  const branding = useAppSelector((s) => selectBranding(s, contract?.slug ?? null));
  const avatarTexts = useAppSelector(selectAvatarTexts);
  if (!contract) return null;
  const index = contracts.indexOf(contract);
  const name = brandedName(contract.name, branding);

  return (
    <Box
      sx={{ display: 'flex', alignItems: 'center', gap: 1, minWidth: 0 }}
      data-testid="brand-mark"
    >
      <ProjectAvatar
        name={contract.name}
        index={index}
        branding={branding}
        initials={avatarTexts[contract.slug]}
        size={40}
      />
      {!compact && (
        <Typography variant="subtitle1" component="span" noWrap sx={{ fontWeight: 700 }}>
          {name}
        </Typography>
      )}
    </Box>
  );
}
