import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { accessPeriodLatestEnd } from '@filerunner/protocol';
import { useTimeZone } from '../../app/time-zone';
import {
  combine,
  dateValue,
  endDateRange,
  slotStart,
  startDateRange,
  timeSlots,
  timeValue,
} from './access-period';

export interface AccessPeriodFieldsProps {
  validFrom: Date;
  validTo: Date;
  now: Date;
  error?: string;
  disabled?: boolean;
  onChange: (period: { validFrom: Date; validTo: Date }) => void;
}

function DateAndTime(props: {
  label: string;
  value: Date;
  range: { min: string; max: string };
  earliest: Date;
  latest: Date;
  timeZone: string;
  disabled?: boolean;
  onChange: (value: Date) => void;
}) {
  const { timeZone } = props;
  const date = dateValue(props.value, timeZone);
  const time = timeValue(props.value, timeZone);
  return (
    <Stack direction="row" spacing={1} sx={{ flex: 1 }}>
      <TextField
        label={`${props.label} date`}
        type="date"
        value={date}
        disabled={props.disabled}
        slotProps={{ inputLabel: { shrink: true }, htmlInput: props.range }}
        onChange={(e) => e.target.value && props.onChange(combine(e.target.value, time, timeZone))}
        sx={{ flex: 1 }}
      />
      <TextField
        select
        label={`${props.label} time`}
        value={time}
        disabled={props.disabled}
        onChange={(e) => props.onChange(combine(date, e.target.value, timeZone))}
        sx={{ width: 140 }}
      >
        {timeSlots(date, props.earliest, props.latest, timeZone).map((slot) => (
          <MenuItem key={slot.value} value={slot.value} disabled={slot.disabled}>
            {slot.label}
          </MenuItem>
        ))}
      </TextField>
    </Stack>
  );
}

/**
 * When recipients may download: start and end, each a date and a time every 30 minutes. On
 * today's date the start cannot be in a past slot and the end not before now; neither may be
 * past the storage limit, 15 days from now.
 */
export function AccessPeriodFields(props: AccessPeriodFieldsProps) {
  const { validFrom, validTo, now } = props;
  const latest = accessPeriodLatestEnd(now);
  const timeZone = useTimeZone();
  return (
    <Stack spacing={1}>
      <Typography variant="subtitle2">Access period</Typography>
      <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
        <DateAndTime
          label="Start"
          value={validFrom}
          range={startDateRange(now, timeZone)}
          earliest={slotStart(now, timeZone)}
          latest={latest}
          timeZone={timeZone}
          disabled={props.disabled}
          onChange={(next) => props.onChange({ validFrom: next, validTo })}
        />
        <DateAndTime
          label="End"
          value={validTo}
          range={endDateRange(validFrom, now, timeZone)}
          earliest={validFrom > now ? validFrom : now}
          latest={latest}
          timeZone={timeZone}
          disabled={props.disabled}
          onChange={(next) => props.onChange({ validFrom, validTo: next })}
        />
      </Stack>
      {props.error && (
        <Typography color="error" variant="body2" role="alert">
          {props.error}
        </Typography>
      )}
    </Stack>
  );
}
