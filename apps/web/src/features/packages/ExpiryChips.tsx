import Chip from '@mui/material/Chip';

/** 'Expired' once the access period is over, 'Expiring' in its last stretch. */
export function ExpiryChips({ expired, expiresSoon }: { expired: boolean; expiresSoon: boolean }) {
  if (expired) return <Chip size="small" label="Expired" />;
  if (expiresSoon) return <Chip size="small" color="warning" label="Expiring" />;
  return null;
}
