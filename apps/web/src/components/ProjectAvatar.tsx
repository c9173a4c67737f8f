import Avatar from '@mui/material/Avatar';
import { projectColour, projectInitials } from '../features/shell/project-selector';

/** A project's initials on its palette colour; `index` is its place in the user's project list. */
export function ProjectAvatar(props: {
  name: string;
  index: number;
  size?: number;
  selected?: boolean;
}) {
  const size = props.size ?? 40;
  return (
    <Avatar
      variant="rounded"
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        fontWeight: 700,
        bgcolor: projectColour(props.index),
        outline: props.selected ? '3px solid' : 'none',
        outlineColor: 'common.white',
        outlineOffset: 2,
      }}
    >
      {projectInitials(props.name)}
    </Avatar>
  );
}
