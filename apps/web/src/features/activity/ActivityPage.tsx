import { useState } from 'react';
import { skipToken } from '@reduxjs/toolkit/query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FileDownload from '@mui/icons-material/FileDownload';
import Search from '@mui/icons-material/Search';
import { useAppSelector } from '../../app/hooks';
import { selectSelectedContract } from '../projects/projects-api';
import { ExportCsvDialog } from './ExportCsvDialog';
import { PackageCard } from './PackageCard';
import { activityList, useActivityInfiniteQuery } from './activity-api';
import { useDebouncedValue } from './use-debounced-value';

const SEARCH_DELAY_MS = 400;

/** /activity — every package of the project, searchable, and the CSV report (admins). */
export function ActivityPage() {
  const slug = useAppSelector(selectSelectedContract)?.slug;
  const [query, setQuery] = useState('');
  const [exporting, setExporting] = useState(false);
  const search = useDebouncedValue(query.trim(), SEARCH_DELAY_MS);
  // Each visit reads the activity afresh; `currentData` is only ever this search's answer.
  const { currentData, isFetching, isError, fetchNextPage } = useActivityInfiniteQuery(
    slug ? { slug, text: search } : skipToken,
    { refetchOnMountOrArgChange: true },
  );
  const { packages, total, hasMore } = activityList(currentData);

  if (!slug) return null;

  return (
    <Box sx={{ p: { xs: 2, md: 4 }, maxWidth: 1100 }}>
      <Stack
        direction={{ xs: 'column', md: 'row' }}
        spacing={2}
        sx={{ alignItems: { md: 'center' }, mb: 3 }}
      >
        <Typography variant="h5" component="h1" sx={{ flex: 1 }}>
          Activity
        </Typography>
        <TextField
          size="small"
          margin="none"
          placeholder="Search packages, senders, recipients"
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          sx={{ width: { md: 340 } }}
          slotProps={{
            htmlInput: { 'aria-label': 'Search activity' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <Search fontSize="small" />
                </InputAdornment>
              ),
            },
          }}
        />
        <Button variant="contained" startIcon={<FileDownload />} onClick={() => setExporting(true)}>
          Export to CSV
        </Button>
      </Stack>
      {isError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          Sorry, we couldn't load the activity of this project. Please try again later.
        </Alert>
      )}
      {isFetching && !currentData && <CircularProgress aria-label="Loading activity" />}
      {currentData && packages.length === 0 && (
        <Typography color="text.secondary" data-testid="activity-empty">
          {search
            ? `No packages match "${search}".`
            : 'No packages have been sent in this project yet. Each package sent here will be listed with its sender, its recipients and their downloads.'}
        </Typography>
      )}
      {packages.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
            Showing {packages.length} of {total} package{total === 1 ? '' : 's'}
          </Typography>
          <Stack spacing={2}>
            {packages.map((pkg) => (
              <PackageCard key={pkg.id} pkg={pkg} />
            ))}
          </Stack>
        </>
      )}
      {hasMore && (
        <Box sx={{ display: 'flex', justifyContent: 'center', mt: 2 }}>
          <Button variant="outlined" disabled={isFetching} onClick={() => void fetchNextPage()}>
            Load more
          </Button>
        </Box>
      )}
      <ExportCsvDialog open={exporting} slug={slug} onClose={() => setExporting(false)} />
    </Box>
  );
}
