import { useState } from 'react';
import { useAppSelector } from '../../app/hooks';
import { DownloadList } from './DownloadList';
import { downloadsPercent, downloadsTone } from './download-panel-model';
import { selectDownloads } from './downloads-slice';
import { queueNames } from './QueueRing';
import { TransferPanelFrame } from './TransferPanelFrame';

/**
 * The transfer panel of a page with downloads only (the external package page): there once a
 * download exists, its queue alone.
 */
export function DownloadPanel() {
  const downloads = useAppSelector(selectDownloads);
  const [expanded, setExpanded] = useState(false);
  if (downloads.length === 0) return null;
  return (
    <TransferPanelFrame
      names={queueNames.downloads}
      percent={downloadsPercent(downloads)}
      count={downloads.length}
      tone={downloadsTone(downloads)}
      expanded={expanded}
      onOpen={() => setExpanded(true)}
      onCollapse={() => setExpanded(false)}
      title="Downloads"
    >
      <DownloadList downloads={downloads} />
    </TransferPanelFrame>
  );
}
