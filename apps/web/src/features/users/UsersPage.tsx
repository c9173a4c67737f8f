import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { skipToken } from '@reduxjs/toolkit/query';
import { useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-api';
import { GroupsListTab } from './GroupsListTab';
import { UserListTab } from './UserListTab';
import { userCounts } from './user-list';
import { useContractUsersQuery, useGroupsQuery } from './users-api';

/** /users — the project's users and groups (admins). `?tab=groups` opens the Groups List. */
export function UsersPage() {
  const contract = useAppSelector(selectSelectedContract);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'groups' ? 'groups' : 'users';
  // Both lists are read afresh on each visit: another admin may have changed them meanwhile.
  const lists = contract ? { params: { slug: contract.slug } } : skipToken;
  const fresh = { refetchOnMountOrArgChange: true };
  const users = useContractUsersQuery(lists, fresh).currentData ?? [];
  useGroupsQuery(lists, fresh);

  if (!contract) return null;
  const counts = userCounts(users);

  return (
    <Box sx={{ p: { xs: 2, md: 4 } }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
        <Typography variant="h5" component="h1">
          Users
        </Typography>
        <Chip
          label={`${counts.enabled} Enabled`}
          color="success"
          variant="outlined"
          data-testid="enabled-count"
        />
        <Chip
          label={`${counts.disabled} Disabled`}
          variant="outlined"
          data-testid="disabled-count"
        />
      </Stack>
      <Tabs
        value={tab}
        onChange={(_event, value: string) => setParams(value === 'groups' ? { tab: 'groups' } : {})}
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 2 }}
      >
        <Tab value="users" label="User List" id="users-tab-users" />
        <Tab value="groups" label="Groups List" id="users-tab-groups" />
      </Tabs>
      <Paper sx={{ p: { xs: 2, md: 3 } }} role="tabpanel" aria-labelledby={`users-tab-${tab}`}>
        {tab === 'users' ? (
          <UserListTab key={contract.slug} slug={contract.slug} />
        ) : (
          <GroupsListTab key={contract.slug} slug={contract.slug} />
        )}
      </Paper>
    </Box>
  );
}
