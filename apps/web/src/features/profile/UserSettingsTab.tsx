import { useState } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import Switch from '@mui/material/Switch';
import Typography from '@mui/material/Typography';
import { messages } from '@filerunner/protocol';
import { useAppSelector } from '../../app/hooks';
import { useToast } from '../../components/toast-context';
import { useUpdateSettingsMutation } from './profile-api';

/** Per-user switches; a save that fails puts the switch back. */
export function UserSettingsTab() {
  const [updateSettings] = useUpdateSettingsMutation();
  const toast = useToast();
  const saved = useAppSelector((s) => s.auth.user?.show_select_storage ?? false);
  // While a save is in flight the switch shows what the user asked for.
  const [pending, setPending] = useState<boolean | null>(null);

  const toggle = async (checked: boolean) => {
    setPending(checked);
    try {
      // The answer is the updated user, which the auth slice takes from here.
      await updateSettings({ body: { show_select_storage: checked } }).unwrap();
    } catch {
      toast({ severity: 'error', message: messages.profile.settingsFailed });
    } finally {
      setPending(null);
    }
  };

  return (
    <>
      <FormControlLabel
        control={
          <Switch
            checked={pending ?? saved}
            disabled={pending !== null}
            onChange={(_event, checked) => void toggle(checked)}
            name="show_select_storage"
          />
        }
        label="Show storage location selection"
      />
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        When on, the Share screen lets you choose where each package is stored.
      </Typography>
    </>
  );
}
