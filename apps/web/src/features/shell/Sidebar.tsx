import { useState, type ReactNode } from 'react';
import { NavLink, useLocation } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import Avatar from '@mui/material/Avatar';
import Badge from '@mui/material/Badge';
import Box from '@mui/material/Box';
import Divider from '@mui/material/Divider';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import BarChart from '@mui/icons-material/BarChart';
import HelpOutlined from '@mui/icons-material/HelpOutlined';
import Inbox from '@mui/icons-material/Inbox';
import Logout from '@mui/icons-material/Logout';
import Outbox from '@mui/icons-material/Outbox';
import People from '@mui/icons-material/People';
import Send from '@mui/icons-material/Send';
import Settings from '@mui/icons-material/Settings';
import { appVersion } from '../../app/config';
import { useAppSelector } from '../../app/hooks';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Logo } from '../../components/Logo';
import { useHelpUrl } from '../help/help-api';
import { useReceivedListInfiniteQuery } from '../inbox/inbox-api';
import { selectSelectedContract } from '../projects/projects-api';
import { BrandMark } from './BrandMark';
import { BRANDING_PREFIX, routePrefix, unseenBadge } from './navigation';
import { useLogout } from './use-logout';

export const SIDEBAR_WIDTH = 232;
export const SIDEBAR_COLLAPSED_WIDTH = 72;

interface Item {
  label: string;
  icon: ReactNode;
  to?: string;
  href?: string;
  onClick?: () => void;
  /** The id of what is said after the name (the Inbox's unseen count). */
  describedBy?: string;
}

/** The unseen count's id, by which the Inbox link is described. */
const UNSEEN_BADGE_ID = 'sidebar-unseen-count';

/** The main navigation: screens by permission, help, profile, logout, logo and version. */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const prefix = routePrefix(useLocation().pathname);
  const contract = useAppSelector(selectSelectedContract);
  const user = useAppSelector((s) => s.auth.user);
  // The Inbox list's own answer carries the project's unseen count; the badge shares its cache.
  const received = useReceivedListInfiniteQuery(contract ? { slug: contract.slug } : skipToken, {
    // Opening the screen or picking another project reads the list afresh.
    refetchOnMountOrArgChange: true,
  });
  const badge = unseenBadge(received.data?.pages.at(-1)?.unseen ?? 0);
  const [confirmLogout, setConfirmLogout] = useState(false);
  const logOut = useLogout();
  const helpUrl = useHelpUrl();

  const inboxIcon = badge ? (
    <Badge
      id={UNSEEN_BADGE_ID}
      badgeContent={badge}
      color="error"
      aria-label={`${badge} unseen packages`}
    >
      <Inbox />
    </Badge>
  ) : (
    <Inbox />
  );
  const screens: Item[] = [
    ...(contract?.permissions.send ? [{ label: 'Share', icon: <Send />, to: 'share' }] : []),
    {
      label: 'Inbox',
      icon: inboxIcon,
      to: 'inbox',
      describedBy: badge ? UNSEEN_BADGE_ID : undefined,
    },
    { label: 'Sent', icon: <Outbox />, to: 'sent' },
    ...(contract?.permissions.admin
      ? [
          { label: 'Activity', icon: <BarChart />, to: 'activity' },
          { label: 'Users', icon: <People />, to: 'users' },
          { label: 'Settings', icon: <Settings />, to: 'settings' },
        ]
      : []),
  ];
  const account: Item[] = [
    { label: 'Help', icon: <HelpOutlined />, href: helpUrl },
    {
      label: user?.name || 'Profile',
      icon: (
        <Avatar src={user?.avatar ?? undefined} sx={{ width: 28, height: 28, fontSize: 14 }}>
          {user?.first_name?.[0]}
        </Avatar>
      ),
      to: 'profile',
    },
    { label: 'Log out', icon: <Logout />, onClick: () => setConfirmLogout(true) },
  ];

  const renderItem = (item: Item) => {
    const common = {
      sx: {
        borderRadius: 1,
        mx: 1,
        justifyContent: collapsed ? 'center' : 'flex-start',
        // The darker shade of the brand teal: the main one is too faint on the selected grey.
        '&.active': { bgcolor: 'action.selected', color: 'primary.dark' },
      },
      'aria-describedby': item.describedBy,
      // Collapsed, the icon is all there is to see; open, the label's text names the item.
      'aria-label': collapsed ? item.label : undefined,
    };
    const content = (
      <>
        {/* The icon (and the avatar's initial) only decorates: the item is named by its label, so
            what a person sees is what a screen reader says. The unseen count, hidden here with
            it, describes the Inbox link instead. */}
        <ListItemIcon aria-hidden sx={{ minWidth: collapsed ? 0 : 40, color: 'inherit' }}>
          {item.icon}
        </ListItemIcon>
        {!collapsed && <ListItemText primary={item.label} />}
      </>
    );
    const button = item.to ? (
      <ListItemButton component={NavLink} to={`${prefix}/${item.to}`} {...common}>
        {content}
      </ListItemButton>
    ) : item.href ? (
      <ListItemButton component="a" href={item.href} target="_blank" rel="noopener" {...common}>
        {content}
      </ListItemButton>
    ) : (
      <ListItemButton onClick={item.onClick} {...common}>
        {content}
      </ListItemButton>
    );
    return collapsed ? (
      <Tooltip key={item.label} title={item.label} placement="right">
        {button}
      </Tooltip>
    ) : (
      <Box key={item.label}>{button}</Box>
    );
  };

  return (
    <Box
      component="nav"
      aria-label="Main"
      sx={{
        width: collapsed ? SIDEBAR_COLLAPSED_WIDTH : SIDEBAR_WIDTH,
        flexShrink: 0,
        borderRight: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        overflowY: 'auto',
      }}
    >
      <Box sx={{ p: 2, display: 'flex', justifyContent: collapsed ? 'center' : 'flex-start' }}>
        {prefix === BRANDING_PREFIX ? (
          <BrandMark compact={collapsed} />
        ) : (
          <Logo compact={collapsed} />
        )}
      </Box>
      {/* Items are links and buttons (in tooltips when collapsed), not list items: a list of
          them must not claim to be a <ul>. */}
      <List component="div">{screens.map(renderItem)}</List>
      <Box sx={{ flex: 1 }} />
      <Divider />
      <List component="div">{account.map(renderItem)}</List>
      <Typography variant="caption" color="text.secondary" sx={{ textAlign: 'center', pb: 1 }}>
        v{appVersion}
      </Typography>
      <ConfirmDialog
        open={confirmLogout}
        title="Log out"
        confirmLabel="Log out"
        onCancel={() => setConfirmLogout(false)}
        onConfirm={() => {
          setConfirmLogout(false);
          logOut();
        }}
      >
        Are you sure you want to log out?
      </ConfirmDialog>
    </Box>
  );
}
