import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import { groupsPreview } from './user-list';

/** A user's first 2 groups, then a '+N' chip naming the rest in its tooltip. */
export function GroupChips({ groups }: { groups: { id: number; name: string }[] }) {
  if (groups.length === 0) return <>—</>;
  const { shown, more } = groupsPreview(groups);
  const rest = groups.slice(shown.length).map((g) => g.name);
  return (
    <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
      {shown.map((g) => (
        <Chip key={g.id} label={g.name} size="small" />
      ))}
      {more > 0 && (
        <Tooltip title={rest.join(', ')}>
          <Chip label={`+${more}`} size="small" variant="outlined" aria-label={rest.join(', ')} />
        </Tooltip>
      )}
    </Stack>
  );
}
