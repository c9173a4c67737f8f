import { useState } from 'react';
import Button from '@mui/material/Button';
import ListItemText from '@mui/material/ListItemText';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import ArrowDropDown from '@mui/icons-material/ArrowDropDown';
import FileDownload from '@mui/icons-material/FileDownload';
import type { DownloadMethod } from '../transfers/download-runner';

export const downloadChoiceText = {
  unpack: 'Unpack into a folder',
  tar: 'Save the .tar into a folder',
  browser: 'Standard browser download',
  invalidNames: 'Some file names are not valid on every system: they may fail to unpack.',
} as const;

/**
 * Download All: where folders can be used, a menu of the ways a package lands (unpacked into a
 * folder, its `.tar` saved into a folder, the browser's own download); elsewhere the browser's
 * download at once. A package with names some systems refuse leads with the `.tar`; unpacking
 * it anyway is the person's call.
 */
export function DownloadAllButton(props: {
  disabled: boolean;
  folderChoices: boolean;
  invalidFilenames: boolean;
  onChoose: (method: DownloadMethod) => void;
}) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  if (!props.folderChoices) {
    return (
      <Button
        variant="contained"
        startIcon={<FileDownload />}
        disabled={props.disabled}
        onClick={() => props.onChoose('browser')}
      >
        Download All
      </Button>
    );
  }
  const choose = (method: DownloadMethod) => () => {
    setAnchor(null);
    props.onChoose(method);
  };
  const methods: DownloadMethod[] = props.invalidFilenames
    ? ['tar', 'unpack', 'browser']
    : ['unpack', 'tar', 'browser'];
  return (
    <>
      <Button
        variant="contained"
        startIcon={<FileDownload />}
        endIcon={<ArrowDropDown />}
        disabled={props.disabled}
        aria-haspopup="menu"
        aria-expanded={anchor !== null}
        onClick={(event) => setAnchor(event.currentTarget)}
      >
        Download All
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {methods.map((method) => (
          <MenuItem key={method} onClick={choose(method)}>
            <ListItemText
              primary={downloadChoiceText[method]}
              secondary={
                method === 'unpack' && props.invalidFilenames
                  ? downloadChoiceText.invalidNames
                  : undefined
              }
            />
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
