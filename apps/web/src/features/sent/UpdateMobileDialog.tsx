import { useState } from 'react';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import { normalizeMobile, type SentPackage, type SentRecipient } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { PhoneField } from '../../components/PhoneField';
import { useToast } from '../../components/toast-context';
import { recipientMessages } from '../packages/package-screen';
import { useUpdateRecipientMutation } from './sent-api';
import { mobileUpdateProblem } from './sent-recipients';

/**
 * A new mobile for one recipient of this package, where their PINs go. Checked as typed; a
 * number the server refuses says so in the field, any other failure in a toast.
 */
export function UpdateMobileDialog(props: {
  pkg: SentPackage;
  recipient: SentRecipient;
  onClose: () => void;
}) {
  const toast = useToast();
  const [mobile, setMobile] = useState(props.recipient.mobile ?? '');
  const [error, setError] = useState<string | null>(null);
  const [update, updating] = useUpdateRecipientMutation();

  const save = async () => {
    const problem = mobileUpdateProblem(mobile);
    setError(problem);
    if (problem) return;
    try {
      await update({
        params: { slug: props.pkg.slug, userId: props.recipient.id },
        body: { mobile: normalizeMobile(mobile) ?? mobile },
      }).unwrap();
      toast({ severity: 'success', message: recipientMessages.mobileUpdated });
      props.onClose();
    } catch (failure) {
      if (asApiError(failure)?.status === 400) setError(recipientMessages.mobileRefused);
      else toast({ severity: 'error', message: recipientMessages.mobileUpdateFailed });
    }
  };

  return (
    <Dialog
      open
      onClose={props.onClose}
      aria-labelledby="update-mobile-title"
      fullWidth
      maxWidth="xs"
    >
      <DialogTitle id="update-mobile-title">Update mobile</DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ mb: 2 }}>
          The PIN for this package goes to {props.recipient.name}'s mobile.
        </DialogContentText>
        <PhoneField
          label="Mobile number"
          value={mobile}
          error={error ?? undefined}
          disabled={updating.isLoading}
          onChange={(value) => {
            setMobile(value);
            setError(null);
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>Cancel</Button>
        <Button variant="contained" disabled={updating.isLoading} onClick={() => void save()}>
          Save
        </Button>
      </DialogActions>
    </Dialog>
  );
}
