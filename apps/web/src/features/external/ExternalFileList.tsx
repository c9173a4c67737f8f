import { useState } from 'react';
import Button from '@mui/material/Button';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import type { PackageFile } from '@filerunner/protocol';
import { PackageFileRow } from '../packages/PackageFileList';
import { useExternalPackageQuery } from './external-api';

interface FileListProps {
  slug: string;
  accessKey: string;
  /** The first page, which came with the package. */
  firstPage: { files: PackageFile[]; has_more: boolean };
  canDownload: boolean;
  onDownload: (file: PackageFile) => void;
}

/** The package's files, a page at a time ('Load more'), each with its own download. */
export function ExternalFileList(props: FileListProps) {
  // The pages after the first that the person asked for; each is its own cached call.
  const [morePages, setMorePages] = useState(0);
  const pages = Array.from({ length: morePages }, (_, i) => i + 2);
  return (
    <List dense aria-label="Files">
      <FileRows files={props.firstPage.files} {...props} />
      {pages.map((page) => (
        <FilePage
          key={page}
          page={page}
          last={page === morePages + 1}
          onLoadMore={() => setMorePages((n) => n + 1)}
          {...props}
        />
      ))}
      {morePages === 0 && props.firstPage.has_more && <LoadMore onClick={() => setMorePages(1)} />}
    </List>
  );
}

function FilePage(props: FileListProps & { page: number; last: boolean; onLoadMore: () => void }) {
  const { data, isFetching, isError, refetch } = useExternalPackageQuery({
    params: { slug: props.slug },
    query: { page: props.page, key: props.accessKey },
  });
  if (isError) {
    return (
      <ListItem>
        <ListItemText primary="Sorry, we could not load more files." />
        <Button onClick={() => void refetch()}>Try again</Button>
      </ListItem>
    );
  }
  if (!data) return isFetching ? <ListItem>Loading…</ListItem> : null;
  return (
    <>
      <FileRows files={data.files} {...props} />
      {props.last && data.has_more && <LoadMore onClick={props.onLoadMore} />}
    </>
  );
}

function FileRows({ files, canDownload, onDownload }: FileListProps & { files: PackageFile[] }) {
  return files.map((file) => (
    <PackageFileRow
      key={file.user_path}
      file={file}
      onDownload={onDownload}
      downloadDisabled={!canDownload}
    />
  ));
}

function LoadMore({ onClick }: { onClick: () => void }) {
  return (
    <ListItem sx={{ justifyContent: 'center' }}>
      <Button onClick={onClick}>Load more</Button>
    </ListItem>
  );
}
