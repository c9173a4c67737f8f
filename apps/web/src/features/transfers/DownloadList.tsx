import Box from '@mui/material/Box';
import { DownloadItem } from './DownloadItem';
import type { DownloadRecord } from './downloads-slice';

/** The download queue's entries, in queue order. */
export function DownloadList(props: { downloads: readonly DownloadRecord[] }) {
  return (
    <Box component="ul" aria-label="Downloads" sx={{ m: 0, px: 2, overflowY: 'auto' }}>
      {props.downloads.map((download) => (
        <DownloadItem key={download.identifier} download={download} />
      ))}
    </Box>
  );
}
