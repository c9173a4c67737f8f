import type { ReactNode } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import Paper from '@mui/material/Paper';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import { packageScreen } from './package-screen';
import { usePaneLayout } from './PackagePanes';

export interface PackageListPaneProps {
  title: string;
  /** The accessible name of the list, e.g. 'Received packages'. */
  label: string;
  /** Nothing is loaded yet: placeholder rows stand in for the packages. */
  loading: boolean;
  error: boolean;
  rows: ReactNode[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** What an empty list says. */
  empty: ReactNode;
}

/** The left pane of Inbox and Sent: the packages a page at a time, newest first. */
export function PackageListPane(props: PackageListPaneProps) {
  const { shown, narrow } = usePaneLayout('list');
  if (!shown) return null;
  return (
    <Paper
      sx={{
        ...(narrow ? { flex: 1, minWidth: 0 } : { width: 380, flexShrink: 0 }),
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <Typography variant="h6" component="h1" sx={{ px: 3, pt: 2, pb: 1 }}>
        {props.title}
      </Typography>
      {props.error && (
        <Typography color="error" sx={{ px: 3, pb: 1 }} role="alert">
          {packageScreen.listFailed}
        </Typography>
      )}
      {props.loading ? (
        <List aria-label={props.label} aria-busy="true">
          {Array.from({ length: packageScreen.placeholderRows }, (_, i) => (
            <ListItem key={i} data-testid="package-placeholder" sx={{ display: 'block' }}>
              <Skeleton variant="text" width="70%" />
              <Skeleton variant="text" width="45%" />
            </ListItem>
          ))}
        </List>
      ) : props.rows.length === 0 && !props.error ? (
        <Typography color="text.secondary" component="div" sx={{ px: 3, pb: 3 }}>
          {props.empty}
        </Typography>
      ) : (
        <Box sx={{ overflowY: 'auto', flex: 1, minHeight: 0 }}>
          <List aria-label={props.label} disablePadding>
            {props.rows}
          </List>
          {props.hasMore && (
            <Box sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <Button variant="outlined" disabled={props.loadingMore} onClick={props.onLoadMore}>
                Load more
              </Button>
            </Box>
          )}
        </Box>
      )}
    </Paper>
  );
}
