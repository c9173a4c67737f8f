import { useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { formatSize, limits } from '@filerunner/protocol';
import { useDebugReceivedPackagesQuery } from './debug-download-api';
import { HISTORY_PAGE_SIZE } from './debug-download-texts';

/** The person's received packages, five at a time: the one picked is downloaded. */
export function PackageHistory(props: {
  selected: string | null;
  disabled: boolean;
  onSelect: (pkg: { slug: string; name: string } | null) => void;
}) {
  const [page, setPage] = useState(0);
  const perServerPage = limits.receivedPageSize / HISTORY_PAGE_SIZE;
  const serverPage = Math.floor(page / perServerPage) + 1;
  const { data, isError, isFetching } = useDebugReceivedPackagesQuery({
    query: { page: serverPage },
  });
  const start = (page % perServerPage) * HISTORY_PAGE_SIZE;
  const packages = data?.packages.slice(start, start + HISTORY_PAGE_SIZE) ?? [];
  const hasNext =
    data !== undefined && (start + HISTORY_PAGE_SIZE < data.packages.length || data.has_more);
  return (
    <Paper variant="outlined" component="section" aria-label="Download History" sx={{ p: 2 }}>
      <Typography variant="h6" component="h2">
        Download History
      </Typography>
      <Typography variant="body2" color="text.secondary">
        Choose a package to download it, or enter URLs below.
      </Typography>
      {isError && <Alert severity="error">The packages could not be loaded.</Alert>}
      <List aria-label="Packages" dense>
        {data && packages.length === 0 && (
          <ListItem>
            <ListItemText secondary="No packages received yet." />
          </ListItem>
        )}
        {packages.map((pkg) => (
          <ListItem key={pkg.slug} disablePadding>
            <ListItemButton
              selected={props.selected === pkg.slug}
              aria-pressed={props.selected === pkg.slug}
              disabled={props.disabled}
              onClick={() =>
                props.onSelect(
                  props.selected === pkg.slug ? null : { slug: pkg.slug, name: pkg.name },
                )
              }
            >
              <ListItemText
                primary={pkg.name}
                secondary={`${formatSize(pkg.bytes)} · ${pkg.num_files} ${pkg.num_files === 1 ? 'file' : 'files'} · from ${pkg.sender?.name ?? 'a former user'} · ${pkg.downloaded ? 'downloaded' : 'not downloaded yet'}`}
              />
            </ListItemButton>
          </ListItem>
        ))}
      </List>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <Button size="small" disabled={page === 0} onClick={() => setPage((p) => p - 1)}>
          Previous
        </Button>
        <Typography variant="body2">Page {page + 1}</Typography>
        <Button
          size="small"
          disabled={!hasNext || isFetching}
          onClick={() => setPage((p) => p + 1)}
        >
          Next
        </Button>
      </Stack>
    </Paper>
  );
}
