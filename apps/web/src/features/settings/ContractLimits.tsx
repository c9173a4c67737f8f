import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { formatSize, type Contract } from '@filerunner/protocol';
import { useContractStorageQuery } from './settings-api';

const limitText = (bytes: number | null) => (bytes === null ? 'Unlimited' : formatSize(bytes));

/**
 * The operator's limits on the project's storage and what its packages use, read-only: the
 * limits are part of the agreement with the operator, so a project admin sees them here but
 * changes them through the operator.
 */
export function ContractLimits({ contract }: { contract: Contract }) {
  // Packages come and go between visits, so what is used is asked again each time.
  const { data: storage } = useContractStorageQuery(
    { params: { slug: contract.slug } },
    { refetchOnMountOrArgChange: true },
  );
  const rows = [
    { label: 'Storage quota', value: limitText((storage ?? contract).storage_quota) },
    {
      label: 'Largest package',
      value: limitText((storage ?? contract).max_package_size),
    },
    { label: 'Storage used', value: storage ? formatSize(storage.storage_used) : '…' },
  ];
  return (
    <Box component="section" aria-labelledby="contract-limits-label">
      <Typography id="contract-limits-label" variant="subtitle1" sx={{ fontWeight: 600 }}>
        Storage limits
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Set by your FileRunner operator. A package that would go past either is refused when it is
        sent; packages count until they expire.
      </Typography>
      <Box
        component="dl"
        sx={{ display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: 1, mt: 1, mb: 0 }}
      >
        {rows.map(({ label, value }) => (
          <Box key={label} sx={{ display: 'contents' }}>
            <Typography component="dt" color="text.secondary">
              {label}
            </Typography>
            <Typography component="dd" sx={{ m: 0 }}>
              {value}
            </Typography>
          </Box>
        ))}
      </Box>
    </Box>
  );
}
