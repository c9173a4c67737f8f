import Avatar from '@mui/material/Avatar';
import type { Branding } from '@filerunner/protocol';
import { avatarLook } from '../features/branding/branding';

/**
 * A project's avatar: its branding's logo, or its alias (else initials) on its colour (else the
 * palette colour of `index`, its place in the user's project list).
 */
export function ProjectAvatar(props: {
  name: string;
  index: number;
  branding?: Branding | null;
  /** Initials told apart from the person's other projects; the name's own by default. */
  initials?: string;
  size?: number;
  selected?: boolean;
}) {
  const size = props.size ?? 40;
  const look = avatarLook(props.name, props.index, props.branding, props.initials);
  return (
    <Avatar
      variant="rounded"
      src={look.logo ?? undefined}
      alt={look.logo ? `${props.branding?.name || props.name} logo` : undefined}
      sx={{
        width: size,
        height: size,
        fontSize: size * 0.4,
        fontWeight: 700,
        bgcolor: look.logo ? 'common.white' : look.colour,
        // Light or dark initials, whichever reads on the project's colour (dark on yellow).
        color: (theme) => theme.palette.getContrastText(look.colour),
        outline: props.selected ? '3px solid' : 'none',
        outlineColor: 'common.white',
        outlineOffset: 2,
      }}
    >
      {look.text}
    </Avatar>
  );
}
