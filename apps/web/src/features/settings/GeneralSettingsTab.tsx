import { useState, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Divider from '@mui/material/Divider';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { pinVerificationModes, type Contract } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { useToast } from '../../components/toast-context';
import { pinModeMeanings } from '../pin/pin-modes';
import { firstErrors } from '../auth/password-form';
import { NotificationRows } from './NotificationRows';
import { ContractLimits } from './ContractLimits';
import { useSaveContractSettingsMutation } from './settings-api';
import { StorageGroupRows } from './StorageGroupRows';
import {
  formOf,
  hasProblems,
  notificationsChanged,
  pinModeLabels,
  saveFailureMessage,
  settingsBody,
  settingsFormDirty,
  settingsFormProblems,
  settingsMessages,
  WORKERS_MAX,
  WORKERS_MIN,
  type PinMode,
  type SettingsForm,
} from './settings-form';

const switches = [
  {
    key: 'can_add_ad_hoc',
    label: 'Allow ad-hoc recipients',
    help: 'Senders may add recipients by email address who have no account in this project.',
  },
  {
    key: 'can_extend_expiry',
    label: 'Allow extending expiry',
    help: 'Recipients may extend the access period of a package that is about to expire.',
  },
  {
    key: 'use_slab_files',
    label: 'Pack small files into slab files',
    help: 'Uploads pack many small files into larger objects, which moves them faster.',
  },
] as const;

type SwitchKey = (typeof switches)[number]['key'];

/**
 * The General tab. The switches save as soon as they change and go back if the save fails
 *; the PIN mode, upload workers, notification rows and storage locations save with the
 * Save button.
 */
export function GeneralSettingsTab({ contract }: { contract: Contract }) {
  const toast = useToast();
  const [saveSettings] = useSaveContractSettingsMutation();
  const saved = contract.settings;
  // A switch shows what the admin asked for until the cached project carries it: the save's
  // answer reaches the cache a moment after the call returns, and in between the switch would
  // flick back to the old value. Settled entries are dropped when the saved settings change
  // (adjusted while rendering, as React advises for state that follows a prop).
  const [pending, setPending] = useState<Partial<Record<SwitchKey, boolean>>>({});
  const [pendingAgainst, setPendingAgainst] = useState(saved);
  if (pendingAgainst !== saved) {
    setPendingAgainst(saved);
    setPending((asked) =>
      Object.fromEntries(
        Object.entries(asked).filter(([key, value]) => saved[key as SwitchKey] !== value),
      ),
    );
  }
  const [form, setForm] = useState<SettingsForm>(() => formOf(contract));
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const dirty = settingsFormDirty(form, contract);
  const problems = attempted ? settingsFormProblems(form) : null;
  const set = (change: Partial<SettingsForm>) => setForm((f) => ({ ...f, ...change }));

  const toggle = async (key: SwitchKey, value: boolean) => {
    setPending((p) => ({ ...p, [key]: value }));
    try {
      await saveSettings({ params: { slug: contract.slug }, body: { [key]: value } }).unwrap();
      toast({ severity: 'success', message: settingsMessages.updated });
    } catch {
      toast({ severity: 'error', message: settingsMessages.saveFailed });
      setPending(({ [key]: _refused, ...rest }) => rest);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    setServerErrors({});
    if (hasProblems(settingsFormProblems(form))) return;
    const rowsChanged = notificationsChanged(form, saved);
    setSaving(true);
    try {
      const body = settingsBody(form, contract);
      const answer = await saveSettings({ params: { slug: contract.slug }, body }).unwrap();
      setForm(formOf(answer));
      setAttempted(false);
      toast({ severity: 'success', message: settingsMessages.updated });
    } catch (error) {
      const failed = asApiError(error);
      const fields = failed ? firstErrors(failed.fieldErrors) : {};
      setServerErrors(fields);
      toast({
        severity: 'error',
        message: saveFailureMessage(rowsChanged || Boolean(fields.notifications)),
      });
    } finally {
      setSaving(false);
    }
  };

  const workersError = problems?.number_of_upload_workers ?? serverErrors.number_of_upload_workers;

  return (
    <Box component="form" onSubmit={submit} noValidate>
      <Stack spacing={1}>
        {switches.map((s) => (
          <Box key={s.key}>
            <FormControlLabel
              label={s.label}
              control={
                <Switch
                  name={s.key}
                  checked={pending[s.key] ?? saved[s.key]}
                  disabled={pending[s.key] !== undefined}
                  onChange={(_e, checked) => void toggle(s.key, checked)}
                />
              }
            />
            <Typography variant="body2" color="text.secondary" sx={{ ml: 6 }}>
              {s.help}
            </Typography>
          </Box>
        ))}
      </Stack>
      <Divider sx={{ my: 3 }} />
      <FormControl>
        <FormLabel id="pin-verification-label">PIN verification</FormLabel>
        <RadioGroup
          row
          name="pin_verification"
          aria-labelledby="pin-verification-label"
          value={form.pin_verification}
          onChange={(_e, value) => set({ pin_verification: value as PinMode })}
        >
          {pinVerificationModes.map((mode) => (
            <FormControlLabel
              key={mode}
              value={mode}
              control={<Radio />}
              label={pinModeLabels[mode]}
            />
          ))}
        </RadioGroup>
        <FormHelperText sx={{ mx: 0 }}>{pinModeMeanings[form.pin_verification]}</FormHelperText>
      </FormControl>
      <TextField
        label="Upload workers"
        name="number_of_upload_workers"
        type="number"
        value={form.number_of_upload_workers}
        onChange={(e) => set({ number_of_upload_workers: e.target.value })}
        error={Boolean(workersError)}
        helperText={
          workersError ?? 'How many files or file parts a browser uploads at once (1 to 50).'
        }
        sx={{ maxWidth: 320, display: 'flex', mt: 3 }}
        slotProps={{ htmlInput: { min: WORKERS_MIN, max: WORKERS_MAX, step: 1 } }}
      />
      <Divider sx={{ my: 3 }} />
      <NotificationRows
        rows={form.notifications}
        problems={problems?.rows ?? null}
        error={problems?.notifications ?? serverErrors.notifications}
        onChange={(notifications) => set({ notifications })}
      />
      <Divider sx={{ my: 3 }} />
      <StorageGroupRows
        rows={form.storage_app_groups}
        problems={problems?.storageRows ?? null}
        error={problems?.storage_app_groups ?? serverErrors.storage_app_groups}
        onChange={(storage_app_groups) => set({ storage_app_groups })}
      />
      <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
        <Button type="submit" variant="contained" disabled={saving || !dirty}>
          Save
        </Button>
        <Button
          disabled={saving || !dirty}
          onClick={() => {
            setForm(formOf(contract));
            setAttempted(false);
            setServerErrors({});
          }}
        >
          Discard changes
        </Button>
      </Stack>
      <Divider sx={{ my: 3 }} />
      <ContractLimits contract={contract} />
      <UnsavedChangesGuard when={dirty} />
    </Box>
  );
}
