import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Skeleton from '@mui/material/Skeleton';
import Typography from '@mui/material/Typography';
import FileDownload from '@mui/icons-material/FileDownload';
import type { PackageFile } from '@filerunner/protocol';
import { formatSize } from '@filerunner/protocol';

export interface PackageFileListProps {
  files: PackageFile[];
  total: number;
  loading: boolean;
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  /** Per-file download; without it the files are only listed (the sender's view). */
  onDownload?: (file: PackageFile) => void;
  downloadDisabled?: boolean;
}

/** A package's files by path, a page at a time, each with its size and download. */
export function PackageFileList(props: PackageFileListProps) {
  return (
    <Box>
      <Typography variant="subtitle1" component="h3" sx={{ mt: 3 }}>
        Files ({props.total})
      </Typography>
      {props.loading ? (
        <Box aria-busy="true">
          <Skeleton variant="text" width="60%" />
          <Skeleton variant="text" width="50%" />
        </Box>
      ) : (
        <List dense aria-label="Files">
          {props.files.map((file) => (
            <PackageFileRow
              key={file.user_path}
              file={file}
              divider
              onDownload={props.onDownload}
              downloadDisabled={props.downloadDisabled}
            />
          ))}
        </List>
      )}
      {props.hasMore && (
        <Button variant="outlined" disabled={props.loadingMore} onClick={props.onLoadMore}>
          Load more
        </Button>
      )}
    </Box>
  );
}

/** One file by its path and size, with its download when the viewer may download. */
export function PackageFileRow(props: {
  file: PackageFile;
  divider?: boolean;
  onDownload?: (file: PackageFile) => void;
  downloadDisabled?: boolean;
}) {
  const { file } = props;
  return (
    <ListItem
      divider={props.divider}
      secondaryAction={
        props.onDownload && (
          // The browser's own tooltip: MUI's, with its popper, adds a tenth to the scripts the
          // external package page loads first. On the span, so it shows while disabled.
          <span title="Download">
            <IconButton
              edge="end"
              aria-label={`Download ${file.user_path}`}
              disabled={props.downloadDisabled}
              onClick={() => props.onDownload?.(file)}
            >
              <FileDownload />
            </IconButton>
          </span>
        )
      }
    >
      <ListItemText
        primary={file.user_path}
        secondary={formatSize(file.size)}
        slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
      />
    </ListItem>
  );
}
