import { useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import type { Contract, SentPackage } from '@filerunner/protocol';
import { useToast } from '../../components/toast-context';
import { recipientMessages } from '../packages/package-screen';
import { RecipientList } from '../share/RecipientList';
import { RecipientsPicker } from '../share/RecipientsPicker';
import { useRecipientsQuery } from '../share/share-api';
import type { Recipient } from '../share/share-form';
import { useAddRecipientsMutation } from './sent-api';
import { addRecipientsArgs, addRecipientsProblem, existingAsChosen } from './sent-recipients';

/**
 * More people for a sent package, picked as on the Share screen and under the same PIN rule:
 * those who need a PIN need a mobile. They get the package as it is, with its expiry.
 */
export function AddRecipientsDialog(props: {
  open: boolean;
  pkg: SentPackage;
  contract: Contract;
  onClose: () => void;
}) {
  const { pkg, contract } = props;
  const toast = useToast();
  const [added, setAdded] = useState<Recipient[]>([]);
  const [message, setMessage] = useState('');
  const [pressed, setPressed] = useState(false);
  const groups = useRecipientsQuery(props.open ? { params: { slug: contract.slug } } : skipToken);
  const [addRecipients, adding] = useAddRecipientsMutation();
  const existing = existingAsChosen(pkg);
  const problem = addRecipientsProblem(added, pkg, contract);

  const close = () => {
    setAdded([]);
    setMessage('');
    setPressed(false);
    props.onClose();
  };
  const submit = async () => {
    setPressed(true);
    if (problem) return;
    try {
      await addRecipients(addRecipientsArgs(added, pkg, contract, message)).unwrap();
      toast({
        severity: 'success',
        message: recipientMessages.added,
        durationMs: recipientMessages.addedToastMs,
      });
      close();
    } catch {
      toast({ severity: 'error', message: recipientMessages.addFailed });
    }
  };

  return (
    <Dialog
      open={props.open}
      onClose={close}
      aria-labelledby="add-recipients-title"
      fullWidth
      maxWidth="sm"
    >
      <DialogTitle id="add-recipients-title">Add recipients</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <RecipientsPicker
            groups={groups.data ?? []}
            loading={groups.isFetching}
            chosen={[...existing, ...added]}
            canAddAdHoc={contract.settings.can_add_ad_hoc}
            disabled={adding.isLoading}
            onChange={(all) => setAdded(all.slice(existing.length))}
          />
          <RecipientList
            recipients={added}
            pinMode={contract.settings.pin_verification}
            pinVerify={pkg.pin_verified}
            disabled={adding.isLoading}
            onChange={setAdded}
          />
          <TextField
            label="Message for the new recipients"
            multiline
            minRows={2}
            value={message}
            disabled={adding.isLoading}
            onChange={(e) => setMessage(e.target.value)}
          />
          {pressed && problem && (
            <Alert severity="error" data-testid="add-recipients-problem">
              {problem}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button
          variant="contained"
          disabled={adding.isLoading || added.length === 0}
          onClick={() => void submit()}
        >
          Add
        </Button>
      </DialogActions>
    </Dialog>
  );
}
