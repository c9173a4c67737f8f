import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Button from '@mui/material/Button';
import Checkbox from '@mui/material/Checkbox';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormGroup from '@mui/material/FormGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Group } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { PhoneField } from '../../components/PhoneField';
import { useToast } from '../../components/toast-context';
import { firstErrors } from '../auth/password-form';
import { emptyNewUser, newUserBody, newUserProblems, type NewUserForm } from './user-forms';
import { useAddContractUserMutation } from './users-api';

type Field = 'first_name' | 'last_name' | 'email' | 'mobile' | 'groups';
const fields: Field[] = ['first_name', 'last_name', 'email', 'mobile', 'groups'];
const addFailed = "Sorry, we couldn't add that user. Please try again.";

/** Adds a person to the project; a new account gets an activation mail from the server. */
export function AddUserDialog(props: {
  open: boolean;
  slug: string;
  groups: Group[];
  onClose: () => void;
}) {
  const toast = useToast();
  const [addUser] = useAddContractUserMutation();
  const [form, setForm] = useState<NewUserForm>(emptyNewUser);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const set = (change: Partial<NewUserForm>) => setForm((f) => ({ ...f, ...change }));
  const close = () => {
    setForm(emptyNewUser);
    setErrors({});
    setFailure(null);
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const problems = newUserProblems(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    setSaving(true);
    try {
      const user = await addUser({
        params: { slug: props.slug },
        body: newUserBody(form),
      }).unwrap();
      // The answer never says whether the address already had an account (that belongs to the
      // person and their other projects): a new one gets an activation mail, an existing one a
      // mail naming this project.
      toast({
        severity: 'success',
        message: `${user.name} was added to the project and told by email at ${user.email}.`,
      });
      close();
    } catch (error) {
      const failed = asApiError(error);
      const found = failed ? firstErrors(failed.fieldErrors) : {};
      setErrors(found);
      if (!fields.some((f) => found[f])) setFailure(addFailed);
    } finally {
      setSaving(false);
    }
  };

  const text = (field: 'first_name' | 'last_name' | 'email', label: string) => (
    <TextField
      label={label}
      name={field}
      required
      value={form[field]}
      onChange={(e) => set({ [field]: e.target.value })}
      error={Boolean(errors[field])}
      helperText={errors[field]}
    />
  );

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="sm">
      <form onSubmit={submit} noValidate>
        <DialogTitle>Add User</DialogTitle>
        <DialogContent>
          {failure && <Alert severity="error">{failure}</Alert>}
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
            {text('first_name', 'First name')}
            {text('last_name', 'Last name')}
          </Stack>
          {text('email', 'Email')}
          <PhoneField
            label="Mobile (optional)"
            name="mobile"
            value={form.mobile}
            onChange={(mobile) => set({ mobile })}
            error={errors.mobile}
          />
          <FormGroup row sx={{ my: 1 }}>
            <FormControlLabel
              label="Project admin"
              control={
                <Checkbox
                  checked={form.project_admin}
                  onChange={(_e, project_admin) => set({ project_admin })}
                />
              }
            />
            <FormControlLabel
              label="Can send"
              control={
                <Checkbox
                  // A project admin always gets send permission on the server too.
                  checked={form.send || form.project_admin}
                  disabled={form.project_admin}
                  onChange={(_e, send) => set({ send })}
                />
              }
            />
            <FormControlLabel
              label="Add to master group"
              control={
                <Checkbox
                  checked={form.add_to_master_group}
                  onChange={(_e, add_to_master_group) => set({ add_to_master_group })}
                />
              }
            />
          </FormGroup>
          <Autocomplete
            multiple
            options={props.groups}
            getOptionLabel={(g) => g.name}
            isOptionEqualToValue={(a, b) => a.id === b.id}
            value={props.groups.filter((g) => form.groups.includes(g.id))}
            onChange={(_e, chosen) => set({ groups: chosen.map((g) => g.id) })}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Groups"
                error={Boolean(errors.groups)}
                helperText={errors.groups}
              />
            )}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={close}>Cancel</Button>
          <Button type="submit" variant="contained" disabled={saving}>
            Add User
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
