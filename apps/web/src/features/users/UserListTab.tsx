import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import Search from '@mui/icons-material/Search';
import type { ContractUser } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { useAppSelector } from '../../app/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { useToast } from '../../components/toast-context';
import { AddExternalUsersDialog } from './AddExternalUsersDialog';
import { AddUserDialog } from './AddUserDialog';
import { UserTable } from './UserTable';
import { draftOf, filterUsers, hasChanges, rowChanges, type UserDraft } from './user-list';
import {
  useContractUsersQuery,
  useGroupsQuery,
  useRemoveContractUserMutation,
  useUpdatePermissionsMutation,
  useUpdateUserNameMutation,
} from './users-api';

const saveFailed = "Sorry, we couldn't save that change. Please try again.";
const removeFailed = "Sorry, we couldn't remove that user. Please try again.";

/** The User List tab: search, view and edit modes, add users, add external users, remove. */
export function UserListTab({ slug }: { slug: string }) {
  const toast = useToast();
  const usersList = useContractUsersQuery({ params: { slug } });
  const users = usersList.currentData ?? [];
  const groups = useGroupsQuery({ params: { slug } }).currentData?.groups ?? [];
  const [updateName] = useUpdateUserNameMutation();
  const [updatePermissions] = useUpdatePermissionsMutation();
  const [removeUser] = useRemoveContractUserMutation();
  const meId = useAppSelector((s) => s.auth.user?.id);
  const [query, setQuery] = useState('');
  const [editing, setEditing] = useState(false);
  const [drafts, setDrafts] = useState<Record<number, UserDraft>>({});
  const [saving, setSaving] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);
  const [adding, setAdding] = useState(false);
  const [addingExternal, setAddingExternal] = useState(false);
  const [removing, setRemoving] = useState<ContractUser | null>(null);
  const [busy, setBusy] = useState(false);

  const dirty = editing && hasChanges(users, drafts);
  const shown = filterUsers(users, query);
  const draftFor = (user: ContractUser) => drafts[user.id] ?? draftOf(user);
  const blankName = Object.values(drafts).some((d) => !d.name.trim());

  const stopEditing = () => {
    setEditing(false);
    setDrafts({});
    setConfirmCancel(false);
  };

  const save = async () => {
    setSaving(true);
    const failures: string[] = [];
    const failed = new Set<number>();
    for (const user of users) {
      const draft = drafts[user.id];
      const changes = draft ? rowChanges(user, draft) : null;
      if (!changes) continue;
      try {
        const params = { slug, userId: user.id };
        if (changes.name !== undefined) {
          await updateName({ params, body: { name: changes.name } }).unwrap();
        }
        if (changes.permissions) {
          await updatePermissions({
            params,
            body: { id: user.id, ...changes.permissions },
          }).unwrap();
        }
      } catch (error) {
        failed.add(user.id);
        failures.push(`${user.email}: ${firstErrorMessage(error, saveFailed)}`);
      }
    }
    setSaving(false);
    if (failures.length === 0) {
      stopEditing();
      toast({ severity: 'success', message: 'Users updated successfully' });
      return;
    }
    // Rows that saved are done; the ones that failed stay in edit mode with their changes.
    setDrafts((current) =>
      Object.fromEntries(Object.entries(current).filter(([id]) => failed.has(Number(id)))),
    );
    toast({ severity: 'error', message: failures.join(' ') });
  };

  const remove = async (user: ContractUser) => {
    setBusy(true);
    try {
      await removeUser({ params: { slug, userId: user.id } }).unwrap();
      toast({ severity: 'success', message: `${user.name} was removed from the project.` });
    } catch (error) {
      toast({ severity: 'error', message: firstErrorMessage(error, removeFailed) });
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  };

  return (
    <>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={1}
        sx={{ alignItems: { md: 'center' }, mb: 2 }}
      >
        <TextField
          size="small"
          margin="none"
          placeholder="Search by name or email"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          sx={{ maxWidth: { md: 320 } }}
          slotProps={{
            htmlInput: { 'aria-label': 'Search users' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Stack direction="row" spacing={1} sx={{ flex: 1, justifyContent: 'flex-end' }}>
          {editing ? (
            <>
              <Button onClick={() => (dirty ? setConfirmCancel(true) : stopEditing())}>
                Cancel
              </Button>
              <Button
                variant="contained"
                onClick={() => void save()}
                disabled={saving || !dirty || blankName}
              >
                Save
              </Button>
            </>
          ) : (
            <>
              <Button variant="outlined" onClick={() => setEditing(true)}>
                Edit
              </Button>
              <Button variant="outlined" onClick={() => setAddingExternal(true)}>
                Add External Users
              </Button>
              <Button variant="contained" onClick={() => setAdding(true)}>
                Add User
              </Button>
            </>
          )}
        </Stack>
      </Stack>
      {usersList.isFetching && users.length === 0 && (
        <CircularProgress aria-label="Loading users" />
      )}
      {usersList.isError && (
        <Alert severity="error">
          Sorry, we couldn't load the users of this project. Please try again later.
        </Alert>
      )}
      {users.length > 0 && shown.length === 0 && (
        <Typography color="text.secondary">No users match "{query.trim()}".</Typography>
      )}
      {shown.length > 0 && (
        <UserTable
          users={shown}
          editing={editing}
          meId={meId}
          draftFor={draftFor}
          onChange={(user, change) =>
            setDrafts((current) => ({ ...current, [user.id]: { ...draftFor(user), ...change } }))
          }
          onRemove={setRemoving}
        />
      )}
      <UnsavedChangesGuard when={dirty} />
      <ConfirmDialog
        open={confirmCancel}
        title="Discard changes"
        confirmLabel="Discard changes"
        destructive
        onCancel={() => setConfirmCancel(false)}
        onConfirm={stopEditing}
      >
        You have unsaved changes to users. Do you want to discard them?
      </ConfirmDialog>
      <ConfirmDialog
        open={removing !== null}
        title="Remove user"
        confirmLabel="Remove"
        destructive
        busy={busy}
        onCancel={() => setRemoving(null)}
        onConfirm={() => removing && void remove(removing)}
      >
        Remove {removing?.name} ({removing?.email}) from this project and its groups? Their account,
        and the packages they sent or received, are kept.
      </ConfirmDialog>
      <AddUserDialog open={adding} slug={slug} groups={groups} onClose={() => setAdding(false)} />
      <AddExternalUsersDialog
        open={addingExternal}
        slug={slug}
        onClose={() => setAddingExternal(false)}
      />
    </>
  );
}
