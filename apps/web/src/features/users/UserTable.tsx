import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { adminMessages, type ContractUser } from '@filerunner/protocol';
import { permissionLabel } from '../profile/profile-form';
import { GroupChips } from './GroupChips';
import type { UserDraft } from './user-list';

export interface UserTableProps {
  users: ContractUser[];
  editing: boolean;
  /** The signed-in admin, who may not demote, disable or remove themselves. */
  meId: number | undefined;
  draftFor: (user: ContractUser) => UserDraft;
  onChange: (user: ContractUser, change: Partial<UserDraft>) => void;
  onRemove: (user: ContractUser) => void;
}

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

/** The user list: read-only in view mode; names and permissions editable in edit mode. */
export function UserTable(props: UserTableProps) {
  const { editing } = props;
  return (
    <TableContainer>
      <Table size="small" aria-label="Users">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
            <TableCell>Mobile</TableCell>
            <TableCell>Permissions</TableCell>
            <TableCell>Admin</TableCell>
            <TableCell>Enabled</TableCell>
            <TableCell>Activated</TableCell>
            <TableCell>Groups</TableCell>
            {!editing && <TableCell align="right">Actions</TableCell>}
          </TableRow>
        </TableHead>
        <TableBody>
          {props.users.map((user) => {
            const draft = props.draftFor(user);
            const self = user.id === props.meId;
            const nameMissing = editing && !draft.name.trim();
            return (
              <TableRow
                key={user.id}
                data-testid="user-row"
                sx={{ opacity: user.enabled ? 1 : 0.6 }}
              >
                <TableCell>
                  {editing ? (
                    <TextField
                      size="small"
                      margin="none"
                      value={draft.name}
                      onChange={(e) => props.onChange(user, { name: e.target.value })}
                      error={nameMissing}
                      helperText={nameMissing ? adminMessages.required : undefined}
                      slotProps={{ htmlInput: { 'aria-label': `Name of ${user.email}` } }}
                    />
                  ) : (
                    user.name
                  )}
                </TableCell>
                <TableCell>{user.email}</TableCell>
                <TableCell>{user.mobile ?? '—'}</TableCell>
                <TableCell>
                  {editing && (
                    <Checkbox
                      size="small"
                      checked={draft.send}
                      onChange={(_e, send) => props.onChange(user, { send })}
                      slotProps={{ input: { 'aria-label': `Send permission of ${user.email}` } }}
                    />
                  )}
                  {permissionLabel(draft)}
                </TableCell>
                <TableCell>
                  {editing ? (
                    <Checkbox
                      size="small"
                      checked={draft.admin}
                      disabled={self}
                      onChange={(_e, admin) => props.onChange(user, { admin })}
                      slotProps={{ input: { 'aria-label': `Admin permission of ${user.email}` } }}
                    />
                  ) : (
                    yesNo(user.admin)
                  )}
                </TableCell>
                <TableCell>
                  {editing ? (
                    <Checkbox
                      size="small"
                      checked={draft.enabled}
                      disabled={self}
                      onChange={(_e, enabled) => props.onChange(user, { enabled })}
                      slotProps={{ input: { 'aria-label': `Enabled of ${user.email}` } }}
                    />
                  ) : (
                    yesNo(user.enabled)
                  )}
                </TableCell>
                <TableCell>
                  {user.external ? 'External' : user.activated ? 'Yes' : 'Pending'}
                </TableCell>
                <TableCell>
                  <GroupChips groups={user.groups} />
                </TableCell>
                {!editing && (
                  <TableCell align="right">
                    <Tooltip title={self ? 'You cannot remove yourself' : 'Remove user'}>
                      <span>
                        <IconButton
                          size="small"
                          color="error"
                          aria-label={`Remove ${user.email}`}
                          disabled={self}
                          onClick={() => props.onRemove(user)}
                        >
                          <DeleteOutlined fontSize="small" />
                        </IconButton>
                      </span>
                    </Tooltip>
                  </TableCell>
                )}
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
