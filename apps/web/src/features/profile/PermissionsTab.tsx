import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import type { Membership } from '@filerunner/protocol';
import { useApi } from '../../app/hooks';
import { profileApi } from './profile-api';
import { permissionLabel } from './profile-form';

type Load = { state: 'loading' } | { state: 'failed' } | { state: 'loaded'; rows: Membership[] };

/** What the user may do in each project they belong to. */
export function PermissionsTab() {
  const api = useApi();
  const [load, setLoad] = useState<Load>({ state: 'loading' });

  useEffect(() => {
    let current = true;
    profileApi.permissions(api).then(
      (rows) => {
        if (current) setLoad({ state: 'loaded', rows });
      },
      () => {
        if (current) setLoad({ state: 'failed' });
      },
    );
    return () => {
      current = false;
    };
  }, [api]);

  if (load.state === 'loading') return <CircularProgress aria-label="Loading permissions" />;
  if (load.state === 'failed') {
    return (
      <Alert severity="error">
        Sorry, we couldn't load your permissions. Please try again later.
      </Alert>
    );
  }
  if (load.rows.length === 0) {
    return <Typography color="text.secondary">You are not a member of any project.</Typography>;
  }

  return (
    <TableContainer>
      <Table size="small" aria-label="Permissions">
        <TableHead>
          <TableRow>
            <TableCell>Project</TableCell>
            <TableCell>Permissions</TableCell>
            <TableCell>Project Admin</TableCell>
            <TableCell>Master Group</TableCell>
            <TableCell>Groups</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {load.rows.map((row) => (
            <TableRow key={row.contract.id}>
              <TableCell>{row.contract.name}</TableCell>
              <TableCell>{permissionLabel(row)}</TableCell>
              <TableCell>{row.admin ? 'Yes' : 'No'}</TableCell>
              <TableCell>{row.master_group ? 'Yes' : 'No'}</TableCell>
              <TableCell>
                {row.groups.length === 0 ? (
                  '—'
                ) : (
                  <Stack direction="row" spacing={0.5} useFlexGap sx={{ flexWrap: 'wrap' }}>
                    {row.groups.map((g) => (
                      <Chip key={g.name} label={g.name} size="small" />
                    ))}
                  </Stack>
                )}
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
