import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import TextField from '@mui/material/TextField';
import type { ContractUser, Group } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { useToast } from '../../components/toast-context';
import { firstErrors } from '../auth/password-form';
import { groupProblems } from './user-forms';
import { useAddGroupMutation, useEditGroupMutation } from './users-api';

type Field = 'name' | 'description' | 'members';
const saveFailed = "Sorry, we couldn't save that group. Please try again.";

/**
 * Creates a group (name, description, first members) or edits one's name and description; its
 * members are changed on the group's card.
 */
export function GroupDialog(props: {
  slug: string;
  /** The group to edit; none to create one. */
  group: Group | null;
  users: ContractUser[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const toast = useToast();
  const [addGroup] = useAddGroupMutation();
  const [editGroup] = useEditGroupMutation();
  const { group } = props;
  const [name, setName] = useState(group?.name ?? '');
  const [description, setDescription] = useState(group?.description ?? '');
  const [members, setMembers] = useState<ContractUser[]>([]);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problems = groupProblems({ name });
    setErrors(problems);
    if (problems.name) return;
    const fields = { name: name.trim(), description: description.trim() };
    setSaving(true);
    try {
      if (group) {
        await editGroup({ params: { slug: props.slug, groupId: group.id }, body: fields }).unwrap();
      } else {
        const body = { ...fields, members: members.map((m) => m.id) };
        await addGroup({ params: { slug: props.slug }, body }).unwrap();
      }
      toast({ severity: 'success', message: group ? 'Group updated' : 'Group created' });
      props.onSaved();
    } catch (error) {
      const failed = asApiError(error);
      const found = failed ? firstErrors(failed.fieldErrors) : {};
      setErrors(found);
      if (!found.name && !found.description && !found.members) setFailure(saveFailed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={props.onClose} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{group ? 'Edit Group' : 'Create Group'}</DialogTitle>
        <DialogContent>
          {failure && <Alert severity="error">{failure}</Alert>}
          <TextField
            label="Group name"
            name="name"
            required
            autoFocus
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean(errors.name)}
            helperText={errors.name}
          />
          <TextField
            label="Description"
            name="description"
            multiline
            minRows={2}
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={Boolean(errors.description)}
            helperText={errors.description}
          />
          {!group && (
            <Autocomplete
              multiple
              options={props.users}
              getOptionLabel={(u) => `${u.name} (${u.email})`}
              isOptionEqualToValue={(a, b) => a.id === b.id}
              value={members}
              onChange={(_e, value) => setMembers(value)}
              renderInput={(params) => (
                <TextField
                  {...params}
                  label="Members"
                  error={Boolean(errors.members)}
                  helperText={errors.members}
                />
              )}
            />
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={props.onClose}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            {group ? 'Save' : 'Create Group'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
