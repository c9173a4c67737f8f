import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-slice';
import { GroupsListTab } from './GroupsListTab';
import { UserListTab } from './UserListTab';
import { refreshUserManagement } from './user-management-slice';
import { userCounts } from './user-list';

/** /users — the project's users and groups (admins). `?tab=groups` opens the Groups List. */
export function UsersPage() {
  const dispatch = useAppDispatch();
  const contract = useAppSelector(selectSelectedContract);
  const users = useAppSelector((s) => s.userManagement.users);
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'groups' ? 'groups' : 'users';
  const slug = contract?.slug;

  useEffect(() => {
    if (slug) void dispatch(refreshUserManagement(slug));
  }, [dispatch, slug]);

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
