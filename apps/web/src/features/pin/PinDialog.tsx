import { useRef, useState, type ClipboardEvent, type KeyboardEvent } from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormHelperText from '@mui/material/FormHelperText';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { pinMessages, type PinState } from '@filerunner/protocol';
import { pinFailureMessage, usePinCalls, type PinCaller } from './pin-api';
import {
  backspaceIn,
  completeCode,
  emptyPin,
  pasteInto,
  typeInto,
  type PinDigits,
  type PinEdit,
} from './pin-entry';

export interface PinDialogProps extends PinCaller {
  open: boolean;
  /** The last digits of the recipient's mobile, as the package tells them, until a send answers. */
  mobileHint?: string | null | undefined;
  onClose: () => void;
  /** The PIN was right: downloads are open to this recipient now. */
  onVerified: () => void;
}

interface Failure {
  title: string;
  message: string;
}

/**
 * PIN verification: the recipient asks for a PIN by text message, then types (or pastes) its six
 * digits. A right PIN closes the dialog and clears it; a wrong one, or a send that failed, says
 * so with the server's words.
 */
export function PinDialog(props: PinDialogProps) {
  const calls = usePinCalls(props);
  const [digits, setDigits] = useState<PinDigits>(emptyPin);
  const [state, setState] = useState<PinState>('UNKNOWN');
  const [failure, setFailure] = useState<Failure | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [incomplete, setIncomplete] = useState(false);
  const inputs = useRef<(HTMLInputElement | null)[]>([]);
  const hint = sentTo ?? props.mobileHint ?? null;

  const apply = ({ digits: next, focus }: PinEdit) => {
    setDigits(next);
    if (completeCode(next)) setIncomplete(false);
    if (focus !== null) inputs.current[focus]?.focus();
  };

  const reset = () => {
    setDigits(emptyPin());
    setState('UNKNOWN');
    setFailure(null);
    setIncomplete(false);
  };

  const close = () => {
    reset();
    props.onClose();
  };

  const send = async () => {
    setFailure(null);
    try {
      const sent = await calls.send();
      setSentTo(sent.mobile_hint);
      setState('UNKNOWN');
      setDigits(emptyPin());
      inputs.current[0]?.focus();
    } catch (error) {
      setState('FAILED_TO_SEND_PIN');
      setFailure({
        title: pinMessages.sendFailedDefault,
        message: pinFailureMessage(error, pinMessages.sendFailed),
      });
    }
  };

  const verify = async () => {
    const code = completeCode(digits);
    if (!code) {
      setIncomplete(true);
      return;
    }
    setFailure(null);
    try {
      await calls.verify(code);
      // OK: the dialog closes, and clears, so it opens empty next time.
      reset();
      props.onVerified();
      props.onClose();
    } catch (error) {
      setState('PIN_IS_NOT_VALID');
      setFailure({
        title: pinMessages.notValidDefault,
        message: pinFailureMessage(error, pinMessages.notValid),
      });
    }
  };

  const onKeyDown = (index: number) => (event: KeyboardEvent<HTMLDivElement>) => {
    if (/^\d$/.test(event.key) && !event.ctrlKey && !event.metaKey && !event.altKey) {
      // Taken here rather than from the change event: typing the digit an input already holds
      // changes nothing, so no change event would come and the focus would not move on.
      event.preventDefault();
      apply(typeInto(digits, index, event.key));
    } else if (event.key === 'Backspace') {
      event.preventDefault();
      apply(backspaceIn(digits, index));
    } else if (event.key === 'ArrowLeft' && index > 0) {
      inputs.current[index - 1]?.focus();
    } else if (event.key === 'ArrowRight' && index < digits.length - 1) {
      inputs.current[index + 1]?.focus();
    } else if (event.key === 'Enter') {
      event.preventDefault();
      void verify();
    }
  };

  const onPaste = (index: number) => (event: ClipboardEvent<HTMLDivElement>) => {
    event.preventDefault();
    apply(pasteInto(digits, index, event.clipboardData.getData('text')));
  };

  return (
    <Dialog open={props.open} onClose={close} aria-labelledby="pin-dialog-title">
      <DialogTitle id="pin-dialog-title">PIN verification</DialogTitle>
      <DialogContent>
        <Typography sx={{ mb: 2 }} data-testid="pin-instructions">
          {sentTo
            ? `We sent a PIN by text message to your mobile ending in ${sentTo}. Enter its 6 digits.`
            : hint
              ? `This package needs a PIN. We will send one by text message to your mobile ending in ${hint}.`
              : 'This package needs a PIN. We will send one by text message to your mobile.'}
        </Typography>
        <Box
          role="group"
          aria-label="PIN"
          sx={{ display: 'flex', gap: 1, justifyContent: 'center' }}
        >
          {digits.map((digit, index) => (
            <TextField
              key={index}
              value={digit}
              error={incomplete || state === 'PIN_IS_NOT_VALID'}
              inputRef={(element: HTMLInputElement | null) => {
                inputs.current[index] = element;
              }}
              onChange={(event) => apply(typeInto(digits, index, event.target.value))}
              onKeyDown={onKeyDown(index)}
              onPaste={onPaste(index)}
              onFocus={(event) => event.target.select()}
              slotProps={{
                htmlInput: {
                  'aria-label': `PIN digit ${index + 1}`,
                  inputMode: 'numeric',
                  autoComplete: index === 0 ? 'one-time-code' : 'off',
                  style: { textAlign: 'center', fontSize: 24, width: 28 },
                },
              }}
            />
          ))}
        </Box>
        {incomplete && (
          <FormHelperText error sx={{ textAlign: 'center' }}>
            {pinMessages.codeFormat}
          </FormHelperText>
        )}
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }} data-testid="pin-failure">
            <AlertTitle>{failure.title}</AlertTitle>
            {failure.message}
          </Alert>
        )}
      </DialogContent>
      <DialogActions>
        <Button onClick={close}>Cancel</Button>
        <Button onClick={() => void send()} disabled={calls.busy}>
          {sentTo ? 'Send a new PIN' : 'Send PIN'}
        </Button>
        <Button variant="contained" onClick={() => void verify()} disabled={calls.busy}>
          Verify
        </Button>
      </DialogActions>
    </Dialog>
  );
}
