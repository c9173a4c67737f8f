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
import { useGetMembershipsQuery } from './profile-api';
import { permissionLabel } from './profile-form';

/** What the user may do in each project they belong to. */
export function PermissionsTab() {
  const { data: rows, isLoading, isError } = useGetMembershipsQuery();

  if (isLoading) return <CircularProgress aria-label="Loading permissions" />;
  if (isError || !rows) {
    return (
      <Alert severity="error">
        Sorry, we couldn't load your permissions. Please try again later.
      </Alert>
    );
  }
  if (rows.length === 0) {
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
          {rows.map((row) => (
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
