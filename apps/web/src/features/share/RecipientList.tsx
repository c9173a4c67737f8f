import Box from '@mui/material/Box';
import { alpha } from '@mui/material/styles';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import { PhoneField } from '../../components/PhoneField';
import { mobileProblem, needsMobile, type PinMode, type Recipient } from './share-form';

export interface RecipientListProps {
  recipients: readonly Recipient[];
  pinMode: PinMode;
  pinVerify: boolean;
  disabled?: boolean;
  onChange: (recipients: Recipient[]) => void;
}

/**
 * The chosen recipients. When they must prove a PIN, each one who needs it gets a mobile
 * input; those still without a number are highlighted.
 */
export function RecipientList(props: RecipientListProps) {
  const { recipients } = props;
  if (recipients.length === 0) return null;
  const update = (id: number, change: Partial<Recipient>) =>
    props.onChange(recipients.map((r) => (r.id === id ? { ...r, ...change } : r)));
  const remove = (id: number) => props.onChange(recipients.filter((r) => r.id !== id));

  return (
    <Stack spacing={1} role="list" aria-label="Chosen recipients">
      {recipients.map((r) => {
        const wantsMobile = needsMobile(r, props.pinMode, props.pinVerify);
        const missing = wantsMobile && !r.mobile.trim();
        return (
          <Box
            key={r.id}
            role="listitem"
            data-testid="recipient-row"
            data-missing-mobile={missing || undefined}
            sx={{
              display: 'flex',
              alignItems: 'center',
              flexWrap: 'wrap',
              gap: 1,
              p: 1,
              borderRadius: 1,
              border: 1,
              borderColor: missing ? 'error.main' : 'divider',
              bgcolor: (theme) => (missing ? alpha(theme.palette.error.main, 0.06) : 'transparent'),
            }}
          >
            <Box sx={{ flex: 1, minWidth: 180 }}>
              <Typography variant="body2">{r.name}</Typography>
              {r.name !== r.email && (
                <Typography variant="caption" color="text.secondary">
                  {r.email}
                </Typography>
              )}
            </Box>
            {r.id < 0 && <Chip size="small" label="New user" />}
            {wantsMobile && (
              <Box sx={{ width: 260 }}>
                <PhoneField
                  label={`Mobile for ${r.email}`}
                  defaultCountry="us"
                  value={r.mobile}
                  disabled={props.disabled}
                  error={mobileProblem(r.mobile) ?? undefined}
                  onChange={(mobile) => update(r.id, { mobile })}
                />
              </Box>
            )}
            <IconButton
              size="small"
              aria-label={`Remove ${r.email}`}
              disabled={props.disabled}
              onClick={() => remove(r.id)}
            >
              <CloseIcon fontSize="small" />
            </IconButton>
          </Box>
        );
      })}
    </Stack>
  );
}
