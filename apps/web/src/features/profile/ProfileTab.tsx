import { useMemo, useState, type ChangeEvent, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Autocomplete from '@mui/material/Autocomplete';
import Avatar from '@mui/material/Avatar';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import {
  localTimeZone,
  messages,
  withLeadingPlus,
  type FormBody,
  type User,
} from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { useAppSelector } from '../../app/hooks';
import { PhoneField } from '../../components/PhoneField';
import { useToast } from '../../components/toast-context';
import { firstErrors } from '../auth/password-form';
import { useUpdateProfileMutation } from './profile-api';
import {
  avatarProblem,
  timezoneForPicker,
  timezoneForServer,
  timezoneOptions,
} from './profile-form';

type Field = 'first_name' | 'last_name' | 'mobile' | 'timezone' | 'avatar';
type Errors = Partial<Record<Field, string>>;

export function ProfileTab() {
  const user = useAppSelector((s) => s.auth.user);
  return user ? <ProfileForm user={user} /> : null;
}

function ProfileForm({ user }: { user: User }) {
  const [updateProfile] = useUpdateProfileMutation();
  const toast = useToast();
  // A zone the browser does not list (an old alias) must stay selectable as the current value.
  const zones = useMemo(() => {
    const options = timezoneOptions();
    const current = timezoneForPicker(user.timezone);
    return !current || options.includes(current) ? options : [current, ...options];
  }, [user.timezone]);
  const [firstName, setFirstName] = useState(user.first_name);
  const [lastName, setLastName] = useState(user.last_name);
  const [mobile, setMobile] = useState(user.mobile ?? '');
  const [timezone, setTimezone] = useState(timezoneForPicker(user.timezone));
  const [avatarFile, setAvatarFile] = useState<File | null>(null);
  const [avatarPreview, setAvatarPreview] = useState<string | null>(null);
  const [clearAvatar, setClearAvatar] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  const shownAvatar = avatarPreview ?? (clearAvatar ? null : user.avatar);

  const chooseAvatar = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = avatarProblem(file);
    setErrors((e) => ({ ...e, avatar: problem ?? undefined }));
    if (problem) return;
    setAvatarFile(file);
    setClearAvatar(false);
    const reader = new FileReader();
    reader.onload = () =>
      setAvatarPreview(typeof reader.result === 'string' ? reader.result : null);
    reader.readAsDataURL(file);
  };

  const removeAvatar = () => {
    setAvatarFile(null);
    setAvatarPreview(null);
    setClearAvatar(true);
    setErrors((e) => ({ ...e, avatar: undefined }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFailure(null);
    const local: Errors = {};
    if (!firstName.trim()) local.first_name = messages.profile.firstNameRequired;
    if (!lastName.trim()) local.last_name = messages.profile.lastNameRequired;
    setErrors(local);
    if (Object.keys(local).length > 0) return;

    const form: FormBody = {
      fields: [
        ['first_name', firstName.trim()],
        ['last_name', lastName.trim()],
        ['mobile', withLeadingPlus(mobile)],
        ['mobile_confirm', 'true'],
        ['timezone', timezoneForServer(timezone)],
        ...(clearAvatar ? [['clear_avatar', 'true'] as [string, string]] : []),
      ],
      files: avatarFile
        ? [{ field: 'avatar', filename: avatarFile.name, content: avatarFile }]
        : [],
    };

    setSaving(true);
    try {
      // The answer is the updated user, which the auth slice takes from here.
      await updateProfile({ body: form }).unwrap();
      setAvatarFile(null);
      setAvatarPreview(null);
      setClearAvatar(false);
      toast({ severity: 'success', message: messages.profile.updated });
    } catch (error) {
      const fields: Errors = firstErrors(asApiError(error)?.fieldErrors ?? {});
      const known = (['first_name', 'last_name', 'mobile', 'timezone', 'avatar'] as const).filter(
        (f) => fields[f],
      );
      setErrors(fields);
      if (known.length === 0) setFailure(messages.profile.failed);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ maxWidth: 560 }}>
      {failure && <Alert severity="error">{failure}</Alert>}
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Avatar src={shownAvatar ?? undefined} alt={user.name} sx={{ width: 72, height: 72 }}>
          {(user.first_name[0] ?? '') + (user.last_name[0] ?? '')}
        </Avatar>
        <Stack spacing={1}>
          <Stack direction="row" spacing={1}>
            <Button component="label" variant="outlined" size="small">
              Upload avatar
              <input
                hidden
                type="file"
                name="avatar"
                accept="image/png,image/jpeg"
                onChange={chooseAvatar}
              />
            </Button>
            {shownAvatar && (
              <Button size="small" color="error" onClick={removeAvatar}>
                Remove avatar
              </Button>
            )}
          </Stack>
          <Typography variant="caption" color={errors.avatar ? 'error' : 'text.secondary'}>
            {errors.avatar ?? 'PNG or JPEG, at most 1 MB.'}
          </Typography>
        </Stack>
      </Stack>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={{ xs: 0, sm: 2 }}>
        <TextField
          label="First name"
          name="first_name"
          autoComplete="given-name"
          required
          value={firstName}
          onChange={(e) => setFirstName(e.target.value)}
          error={Boolean(errors.first_name)}
          helperText={errors.first_name}
        />
        <TextField
          label="Last name"
          name="last_name"
          autoComplete="family-name"
          required
          value={lastName}
          onChange={(e) => setLastName(e.target.value)}
          error={Boolean(errors.last_name)}
          helperText={errors.last_name}
        />
      </Stack>
      <TextField
        label="Email"
        name="email"
        value={user.email}
        slotProps={{ htmlInput: { readOnly: true } }}
        helperText="To change your email address, please contact support."
      />
      <PhoneField
        label="Mobile"
        name="mobile"
        value={mobile}
        onChange={setMobile}
        error={errors.mobile}
      />
      <Autocomplete
        options={zones}
        value={timezone || null}
        // Cleared, no zone is chosen: dates follow the browser's zone.
        onChange={(_event, zone) => setTimezone(zone ?? '')}
        renderInput={(params) => (
          <TextField
            {...params}
            label="Timezone"
            name="timezone"
            error={Boolean(errors.timezone)}
            helperText={
              errors.timezone ??
              (timezone
                ? 'Dates are shown in this time zone.'
                : `None chosen: dates are shown in your browser's time zone (${localTimeZone()}).`)
            }
          />
        )}
      />
      <Button type="submit" variant="contained" sx={{ mt: 2 }} disabled={saving}>
        Save
      </Button>
    </Box>
  );
}
