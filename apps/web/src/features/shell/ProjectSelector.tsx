import { useState } from 'react';
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Popover from '@mui/material/Popover';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import type { Contract } from '@filerunner/protocol';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { ProjectAvatar } from '../../components/ProjectAvatar';
import { brandedName } from '../branding/branding';
import { selectAvatarTexts, selectBrandingsBySlug } from '../branding/branding-api';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';
import { contractSelected } from '../projects/projects-slice';
import { SEARCH_THRESHOLD, filterProjects, showsOverflowButton } from './project-selector';
import { useWindowHeight } from './use-layout';

export const PROJECT_STRIP_WIDTH = 72;

/** The strip of project avatars at the far left, shown when the user has several projects. */
export function ProjectSelector({ collapsed }: { collapsed: boolean }) {
  const dispatch = useAppDispatch();
  const contracts = useAppSelector(selectContracts);
  const selectedSlug = useAppSelector(selectSelectedContract)?.slug;
  const brandings = useAppSelector(selectBrandingsBySlug);
  const avatarTexts = useAppSelector(selectAvatarTexts);
  const windowHeight = useWindowHeight();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);

  const indexed = contracts.map((contract, index) => ({
    contract,
    index,
    name: brandedName(contract.name, brandings[contract.slug]),
  }));
  const select = (slug: string) => {
    setAnchor(null);
    dispatch(contractSelected(slug));
  };
  const overflow = showsOverflowButton(contracts.length, windowHeight, collapsed);
  const shown = overflow
    ? indexed.filter(({ contract }) => contract.slug === selectedSlug)
    : indexed;
  const others = indexed.filter(({ contract }) => contract.slug !== selectedSlug);

  return (
    <Box
      component="nav"
      aria-label="Projects"
      sx={{
        width: PROJECT_STRIP_WIDTH,
        flexShrink: 0,
        bgcolor: 'primary.dark',
        display: 'flex',
        flexDirection: 'column',
        alignItems: 'center',
        gap: 2,
        py: 2,
      }}
    >
      {shown.map(({ contract, index, name }) => (
        <Tooltip key={contract.slug} title={name} placement="right">
          <ButtonBase
            aria-label={name}
            aria-current={contract.slug === selectedSlug ? 'true' : undefined}
            onClick={() => select(contract.slug)}
            sx={{ borderRadius: 1 }}
          >
            <ProjectAvatar
              name={contract.name}
              index={index}
              branding={brandings[contract.slug]}
              initials={avatarTexts[contract.slug]}
              selected={contract.slug === selectedSlug}
            />
          </ButtonBase>
        </Tooltip>
      ))}
      {overflow && others.length > 0 && (
        <Tooltip title="Other projects" placement="right">
          <ButtonBase
            aria-label={`${others.length} other projects`}
            aria-haspopup="listbox"
            onClick={(event) => setAnchor(event.currentTarget)}
            sx={{
              width: 40,
              height: 40,
              borderRadius: 1,
              color: 'common.white',
              border: '1px solid rgba(255,255,255,0.5)',
              fontWeight: 700,
            }}
          >
            +{others.length}
          </ButtonBase>
        </Tooltip>
      )}
      <Popover
        open={anchor !== null}
        anchorEl={anchor}
        onClose={() => setAnchor(null)}
        anchorOrigin={{ vertical: 'top', horizontal: 'right' }}
        slotProps={{ paper: { sx: { width: 300, maxHeight: 300 } } }}
      >
        <OtherProjects others={others} onSelect={select} />
      </Popover>
    </Box>
  );
}

function OtherProjects(props: {
  others: { contract: Contract; index: number; name: string }[];
  onSelect: (slug: string) => void;
}) {
  const brandings = useAppSelector(selectBrandingsBySlug);
  const avatarTexts = useAppSelector(selectAvatarTexts);
  const [query, setQuery] = useState('');
  const shown = filterProjects(props.others, query);

  return (
    <Box sx={{ p: 1 }}>
      {props.others.length > SEARCH_THRESHOLD && (
        <TextField
          size="small"
          margin="dense"
          placeholder="Search"
          autoFocus
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          slotProps={{ htmlInput: { 'aria-label': 'Search projects' } }}
        />
      )}
      {shown.length === 0 ? (
        <Typography sx={{ p: 2 }} color="text.secondary">
          No results found
        </Typography>
      ) : (
        <List dense role="listbox" aria-label="Other projects">
          {shown.map(({ contract, index, name }) => (
            <ListItemButton
              key={contract.slug}
              role="option"
              onClick={() => props.onSelect(contract.slug)}
            >
              <ListItemIcon>
                <ProjectAvatar
                  name={contract.name}
                  index={index}
                  branding={brandings[contract.slug]}
                  initials={avatarTexts[contract.slug]}
                  size={32}
                />
              </ListItemIcon>
              <ListItemText primary={name} />
            </ListItemButton>
          ))}
        </List>
      )}
    </Box>
  );
}
