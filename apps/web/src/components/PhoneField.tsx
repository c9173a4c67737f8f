import InputAdornment from '@mui/material/InputAdornment';
import ListSubheader from '@mui/material/ListSubheader';
import MenuItem from '@mui/material/MenuItem';
import Select from '@mui/material/Select';
import TextField from '@mui/material/TextField';
import {
  defaultCountries,
  parseCountry,
  usePhoneInput,
  type CountryIso2,
} from 'react-international-phone';
import { limits } from '@filerunner/protocol';

const countries = defaultCountries.map(parseCountry);
const preferred = limits.preferredCountries as readonly string[];
const preferredCountries = preferred.flatMap((iso2) => countries.filter((c) => c.iso2 === iso2));
const otherCountries = countries.filter((c) => !preferred.includes(c.iso2));

export interface PhoneFieldProps {
  label: string;
  /** E.164 with a leading +, or '' for no number. */
  value: string;
  onChange: (value: string) => void;
  error?: string;
  name?: string;
  disabled?: boolean;
  /** The country shown before a number is typed; the first preferred country by default. */
  defaultCountry?: CountryIso2;
}

/**
 * An international mobile number input (react-international-phone) in MUI dress, with the spec's
 * preferred countries (gb, us, au) at the top of the country list. A number that is only the
 * dial code counts as no number.
 */
export function PhoneField(props: PhoneFieldProps) {
  const { inputValue, handlePhoneValueChange, inputRef, country, setCountry } = usePhoneInput({
    defaultCountry: props.defaultCountry ?? (preferred[0] as CountryIso2),
    value: props.value,
    countries: defaultCountries,
    onChange: ({ phone, country: current }) => {
      props.onChange(phone === `+${current.dialCode}` ? '' : phone);
    },
  });

  const countryItem = (c: (typeof countries)[number]) => (
    <MenuItem key={c.iso2} value={c.iso2}>
      {c.name} (+{c.dialCode})
    </MenuItem>
  );

  return (
    <TextField
      label={props.label}
      name={props.name}
      type="tel"
      value={inputValue}
      onChange={handlePhoneValueChange}
      inputRef={inputRef}
      disabled={props.disabled}
      error={Boolean(props.error)}
      helperText={props.error}
      slotProps={{
        input: {
          startAdornment: (
            <InputAdornment position="start" sx={{ mr: 1 }}>
              <Select
                variant="standard"
                disableUnderline
                value={country.iso2}
                onChange={(event) => setCountry(event.target.value as CountryIso2)}
                renderValue={(iso2) => iso2.toUpperCase()}
                disabled={props.disabled}
                inputProps={{ 'aria-label': 'Country' }}
                MenuProps={{ slotProps: { paper: { sx: { maxHeight: 320 } } } }}
              >
                <ListSubheader>Preferred</ListSubheader>
                {preferredCountries.map(countryItem)}
                <ListSubheader>All countries</ListSubheader>
                {otherCountries.map(countryItem)}
              </Select>
            </InputAdornment>
          ),
        },
      }}
    />
  );
}
