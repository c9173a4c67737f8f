import { useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import PersonRemove from '@mui/icons-material/PersonRemove';
import type { ContractUser, GroupMember } from '@filerunner/protocol';

/** A group's members with a remove button each, and a picker that adds project users to it. */
export function MemberListEditor(props: {
  /** The group's name, for the buttons' accessible names. */
  groupName: string;
  members: GroupMember[];
  users: ContractUser[];
  onAdd: (ids: number[]) => Promise<boolean>;
  onRemove: (member: GroupMember) => Promise<unknown>;
}) {
  const [chosen, setChosen] = useState<ContractUser[]>([]);
  const [busy, setBusy] = useState(false);
  const memberIds = new Set(props.members.map((m) => m.id));
  const candidates = props.users.filter((u) => !memberIds.has(u.id));

  const add = async () => {
    setBusy(true);
    if (await props.onAdd(chosen.map((u) => u.id))) setChosen([]);
    setBusy(false);
  };

  const remove = async (member: GroupMember) => {
    setBusy(true);
    await props.onRemove(member);
    setBusy(false);
  };

  return (
    <>
      {props.members.length === 0 ? (
        <Typography color="text.secondary" sx={{ my: 1 }}>
          No members yet.
        </Typography>
      ) : (
        <List dense aria-label={`Members of ${props.groupName}`}>
          {props.members.map((member) => (
            <ListItem
              key={member.id}
              disableGutters
              secondaryAction={
                <IconButton
                  edge="end"
                  aria-label={`Remove ${member.email} from ${props.groupName}`}
                  disabled={busy}
                  onClick={() => void remove(member)}
                >
                  <PersonRemove fontSize="small" />
                </IconButton>
              }
            >
              <ListItemText primary={member.name} secondary={member.email} />
            </ListItem>
          ))}
        </List>
      )}
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Autocomplete
          multiple
          size="small"
          sx={{ flex: 1 }}
          options={candidates}
          getOptionLabel={(u) => `${u.name} (${u.email})`}
          isOptionEqualToValue={(a, b) => a.id === b.id}
          value={chosen}
          onChange={(_e, value) => setChosen(value)}
          noOptionsText="Everybody in the project is a member"
          renderInput={(params) => <TextField {...params} margin="dense" label="Add members" />}
        />
        <Button
          variant="outlined"
          disabled={busy || chosen.length === 0}
          onClick={() => void add()}
        >
          Add
        </Button>
      </Stack>
    </>
  );
}
