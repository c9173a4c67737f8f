import { Navigate, useLocation, useNavigate, useParams } from 'react-router';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { routePrefix } from '../shell/navigation';
import { ApiKeysTab } from './ApiKeysTab';
import { PermissionsTab } from './PermissionsTab';
import { ProfileTab } from './ProfileTab';
import { UpdatePasswordTab } from './UpdatePasswordTab';
import { UserSettingsTab } from './UserSettingsTab';

const tabs = [
  { slug: 'profile', label: 'Profile', Panel: ProfileTab },
  { slug: 'permissions', label: 'Permissions', Panel: PermissionsTab },
  { slug: 'update-password', label: 'Update Password', Panel: UpdatePasswordTab },
  { slug: 'user-settings', label: 'User Settings', Panel: UserSettingsTab },
  { slug: 'api-keys', label: 'API Keys', Panel: ApiKeysTab },
] as const;

/** /profile/:tab? — the user's own account, one tab per concern. */
export function ProfilePage() {
  const { tab = 'profile' } = useParams();
  const navigate = useNavigate();
  const prefix = routePrefix(useLocation().pathname);
  const current = tabs.find((t) => t.slug === tab);
  if (!current) return <Navigate to={`${prefix}/profile`} replace />;
  const { Panel } = current;

  return (
    <Box sx={{ p: { xs: 2, md: 4 }, maxWidth: 960 }}>
      <Typography variant="h5" component="h1" gutterBottom>
        My Account
      </Typography>
      <Tabs
        value={current.slug}
        onChange={(_event, slug: string) =>
          navigate(slug === 'profile' ? `${prefix}/profile` : `${prefix}/profile/${slug}`)
        }
        variant="scrollable"
        allowScrollButtonsMobile
        sx={{ borderBottom: 1, borderColor: 'divider', mb: 3 }}
      >
        {tabs.map((t) => (
          <Tab key={t.slug} value={t.slug} label={t.label} id={`profile-tab-${t.slug}`} />
        ))}
      </Tabs>
      <Paper
        sx={{ p: { xs: 2, md: 3 } }}
        role="tabpanel"
        aria-labelledby={`profile-tab-${current.slug}`}
      >
        <Panel />
      </Paper>
    </Box>
  );
}
