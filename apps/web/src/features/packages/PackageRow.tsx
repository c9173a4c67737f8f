import { Link as RouterLink } from 'react-router';
import Box from '@mui/material/Box';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { ExpiryChips } from './ExpiryChips';
import { useDateTimeFormat } from '../../app/time-zone';

export interface PackageRowProps {
  to: string;
  name: string;
  /** Who sent it (Inbox) or to whom (Sent). */
  who: string;
  dateSent: string;
  selected: boolean;
  /** A received package not opened yet: shown in bold with a dot. */
  unseen?: boolean;
  expired: boolean;
  expiresSoon: boolean;
  removed?: boolean;
}

/** One package of the Inbox or Sent list; expired packages are dimmed. */
export function PackageRow(props: PackageRowProps) {
  const formatDateTime = useDateTimeFormat();
  // The link sits in a list item: a list holds only items, for the screen readers that count them.
  return (
    <ListItem disablePadding>
      <ListItemButton
        component={RouterLink}
        to={props.to}
        selected={props.selected}
        aria-current={props.selected ? 'true' : undefined}
        data-testid="package-row"
        data-unseen={props.unseen || undefined}
        sx={{ display: 'block', opacity: props.expired || props.removed ? 0.55 : 1, py: 1.25 }}
      >
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          {props.unseen && (
            <Box
              aria-label="Unseen"
              sx={{
                width: 8,
                height: 8,
                borderRadius: '50%',
                bgcolor: 'primary.main',
                flexShrink: 0,
              }}
            />
          )}
          <Typography
            sx={{ flex: 1, fontWeight: props.unseen ? 700 : 400, wordBreak: 'break-word' }}
            component="span"
          >
            {props.name}
          </Typography>
          <ExpiryChips expired={props.expired} expiresSoon={props.expiresSoon} />
        </Stack>
        <Typography variant="body2" color="text.secondary" noWrap>
          {props.who}
        </Typography>
        <Typography variant="caption" color="text.secondary">
          {formatDateTime(props.dateSent)}
        </Typography>
      </ListItemButton>
    </ListItem>
  );
}
