import { useId, useMemo, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import ListSubheader from '@mui/material/ListSubheader';
import TextField from '@mui/material/TextField';
import type { RecipientGroup } from '@filerunner/protocol';
import {
  filterRecipientOptions,
  pickerTexts,
  recipientOptions,
  recipientsOf,
  withRecipients,
  type RecipientOption,
} from './recipients';
import type { Recipient } from './share-form';

export interface RecipientsPickerProps {
  groups: readonly RecipientGroup[];
  loading: boolean;
  chosen: readonly Recipient[];
  canAddAdHoc: boolean;
  error?: string;
  disabled?: boolean;
  onChange: (recipients: Recipient[]) => void;
}

const optionKey = (option: RecipientOption) =>
  option.kind === 'user'
    ? `${option.group}:${option.user.id}`
    : option.kind === 'group'
      ? `group:${option.group}`
      : `adhoc:${option.email}`;

/**
 * Finds recipients by name or address: a whole group, one person the sender may reach, or (when
 * the contract allows ad-hoc recipients) a valid address typed in. Each pick is added to the
 * list below the picker and the box empties for the next one.
 */
export function RecipientsPicker(props: RecipientsPickerProps) {
  const [typed, setTyped] = useState('');
  const groupId = useId();
  const options = useMemo(() => recipientOptions(props.groups), [props.groups]);

  const add = (option: RecipientOption | null) => {
    if (!option) return;
    props.onChange(withRecipients(props.chosen, recipientsOf(option, props.groups, props.chosen)));
    setTyped('');
  };

  return (
    <Autocomplete<RecipientOption>
      options={options}
      value={null}
      inputValue={typed}
      onInputChange={(_event, value, reason) => {
        if (reason !== 'reset') setTyped(value);
      }}
      onChange={(_event, option) => add(option)}
      filterOptions={(all) => filterRecipientOptions(all, typed, props.chosen, props.canAddAdHoc)}
      groupBy={(option) => option.group}
      renderGroup={(params) => (
        // Each group a group of options named by its heading, so the suggestions are a proper
        // list box to a screen reader (the default markup nests a bare list in it).
        <li key={params.key} role="presentation">
          <ListSubheader component="div" id={`${groupId}-${params.key}`} sx={{ top: -8 }}>
            {params.group}
          </ListSubheader>
          <Box
            component="ul"
            role="group"
            aria-labelledby={`${groupId}-${params.key}`}
            sx={{ p: 0, '& .MuiAutocomplete-option': { pl: 3 } }}
          >
            {params.children}
          </Box>
        </li>
      )}
      getOptionLabel={(option) => option.label}
      getOptionKey={optionKey}
      isOptionEqualToValue={(a, b) => optionKey(a) === optionKey(b)}
      noOptionsText={props.canAddAdHoc ? pickerTexts.adHocHint : pickerTexts.noOptions}
      loading={props.loading}
      disabled={props.disabled}
      blurOnSelect={false}
      clearOnBlur
      renderInput={(params) => (
        <TextField
          {...params}
          label="Recipients"
          placeholder={props.canAddAdHoc ? 'Name, group or email address' : 'Name or group'}
          error={Boolean(props.error)}
          helperText={props.error}
        />
      )}
    />
  );
}
