import { useId } from 'react';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormHelperText from '@mui/material/FormHelperText';
import MenuItem from '@mui/material/MenuItem';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import { packageLimits, type Contract } from '@filerunner/protocol';
import { pinModeMeanings } from '../pin/pin-modes';
import { pinToggle, type PinMode, type ShareForm } from './share-form';

export function ContractField(props: {
  contracts: readonly Contract[];
  value: string | null;
  error?: string;
  disabled?: boolean;
  onChange: (slug: string) => void;
}) {
  return (
    <TextField
      select
      label="Contract"
      value={props.value ?? ''}
      disabled={props.disabled}
      error={Boolean(props.error)}
      helperText={props.error}
      onChange={(e) => props.onChange(e.target.value)}
    >
      {props.contracts.map((c) => (
        <MenuItem key={c.slug} value={c.slug}>
          {c.name}
        </MenuItem>
      ))}
    </TextField>
  );
}

/**
 * The PIN toggle: off and disabled when the contract has no PIN checks, fixed on for all. Its
 * label names it and the mode's meaning describes it, so a screen reader says why it is fixed.
 */
export function PinToggle(props: {
  mode: PinMode;
  chosen: boolean;
  disabled?: boolean;
  onChange: (chosen: boolean) => void;
}) {
  const toggle = pinToggle(props.mode, props.chosen);
  const id = useId();
  return (
    <div>
      <FormControlLabel
        label="PIN verification"
        htmlFor={`${id}-switch`}
        control={
          <Switch
            checked={toggle.checked}
            disabled={toggle.disabled || props.disabled}
            onChange={(_e, checked) => props.onChange(checked)}
            slotProps={{
              input: { id: `${id}-switch`, 'aria-describedby': `${id}-meaning` },
            }}
          />
        }
      />
      <FormHelperText id={`${id}-meaning`} sx={{ mt: 0 }}>
        {pinModeMeanings[props.mode]}
      </FormHelperText>
    </div>
  );
}

export function NameField(props: {
  value: string;
  error?: string;
  disabled?: boolean;
  onChange: (name: string) => void;
}) {
  return (
    <TextField
      label="Package name"
      value={props.value}
      disabled={props.disabled}
      error={Boolean(props.error)}
      helperText={props.error}
      slotProps={{ htmlInput: { maxLength: packageLimits.nameMax } }}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

export function MessageField(props: {
  value: string;
  disabled?: boolean;
  onChange: (message: string) => void;
}) {
  return (
    <TextField
      label="Message"
      multiline
      minRows={3}
      value={props.value}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value)}
    />
  );
}

/** Where the package is stored, for users who turned on storage selection in their settings. */
export function StorageField(props: {
  contract: Contract;
  value: ShareForm['storageGroup'];
  disabled?: boolean;
  onChange: (group: number | null) => void;
}) {
  return (
    <TextField
      select
      label="Storage location"
      value={props.value === null ? 'default' : String(props.value)}
      disabled={props.disabled}
      onChange={(e) => props.onChange(e.target.value === 'default' ? null : Number(e.target.value))}
    >
      <MenuItem value="default">Default storage</MenuItem>
      {props.contract.storage_app_groups.map((g) => (
        <MenuItem key={g.id} value={String(g.id)}>
          {g.name}
        </MenuItem>
      ))}
    </TextField>
  );
}
