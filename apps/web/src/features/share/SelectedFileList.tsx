import { useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import CloseIcon from '@mui/icons-material/Close';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import type { ByteSource } from '@filerunner/transfer';
import { formatSize } from '@filerunner/protocol';

const ROW_HEIGHT = 36;
const LIST_HEIGHT = 360;

export interface SelectedFileListProps {
  /** The files that will be sent, in the order they were picked. */
  files: readonly ByteSource[];
  totalBytes: number;
  /** Paths of files whose names break the filename constraints, with their problems. */
  problems: ReadonlyMap<string, string[]>;
  onRemove: (paths: ReadonlySet<string>) => void;
  disabled?: boolean;
}

/**
 * The chosen files. Only the rows in view are in the page, so a folder of tens of thousands of
 * frames scrolls as smoothly as a handful of files.
 */
export function SelectedFileList(props: SelectedFileListProps) {
  const scroller = useRef<HTMLDivElement>(null);
  // The app is not built with React Compiler, so nothing caches around the virtualizer's functions.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: props.files.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
  });
  const count = props.files.length;

  return (
    <Box>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1 }}>
        <Typography variant="subtitle2" data-testid="selected-file-count">
          {count.toLocaleString('en-US')} {count === 1 ? 'file' : 'files'},{' '}
          {formatSize(props.totalBytes)}
        </Typography>
        <Button
          size="small"
          disabled={props.disabled}
          onClick={() => props.onRemove(new Set(props.files.map((f) => f.path)))}
        >
          Remove all
        </Button>
      </Stack>
      <Box
        ref={scroller}
        role="list"
        aria-label="Selected files"
        sx={{
          height: Math.min(LIST_HEIGHT, count * ROW_HEIGHT),
          overflow: 'auto',
          border: 1,
          borderColor: 'divider',
          borderRadius: 1,
        }}
      >
        <Box sx={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {virtualizer.getVirtualItems().map((item) => {
            const file = props.files[item.index]!;
            const problems = props.problems.get(file.path);
            return (
              <Stack
                key={file.path}
                role="listitem"
                direction="row"

                spacing={1}
                sx={{
                  alignItems: 'center',
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${item.start}px)`,
                  px: 1,
                }}
              >
                {problems && (
                  <Tooltip title={problems.join('; ')}>
                    <WarningAmberIcon color="warning" fontSize="small" aria-label="Problem name" />
                  </Tooltip>
                )}
                <Typography variant="body2" noWrap sx={{ flex: 1, minWidth: 0 }} title={file.path}>
                  {file.path}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ flexShrink: 0 }}>
                  {formatSize(file.size)}
                </Typography>
                <IconButton
                  size="small"
                  aria-label={`Remove ${file.path}`}
                  disabled={props.disabled}
                  onClick={() => props.onRemove(new Set([file.path]))}
                >
                  <CloseIcon fontSize="small" />
                </IconButton>
              </Stack>
            );
          })}
        </Box>
      </Box>
    </Box>
  );
}
