import { Fragment, useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import {
  api,
  formatSize,
  type DownloadHistoryEntry,
  type RecipientDownload,
} from '@filerunner/protocol';
import { useDateTimeFormat } from '../../app/time-zone';
import { coverageLabel, coveredPaths, receiptFile, verificationLabel } from './download-history';

/** The published key receipts verify against (JWK and PEM), for whoever checks one. */
const publicKeyHref = `/api${api.receipts.publicKey.path}`;

/**
 * One recipient's downloads: when, how much, from where, and, once the history's detail has
 * arrived, which files each delivered, what the recipient's engine found when it checked them,
 * and the signed receipt to save.
 */
export function DownloadHistoryTable(props: {
  recipientName: string;
  downloads: readonly RecipientDownload[];
  /** The same downloads in depth, when read (undefined while loading or refused). */
  detail: readonly DownloadHistoryEntry[] | undefined;
  files: readonly string[];
  packageName: string;
}) {
  const { detail, files } = props;
  const formatDateTime = useDateTimeFormat();
  const [open, setOpen] = useState<number | null>(null);
  const rows: readonly (RecipientDownload & Partial<DownloadHistoryEntry>)[] =
    detail ?? props.downloads;
  if (rows.length === 0) {
    return (
      <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
        No downloads yet.
      </Typography>
    );
  }
  const hasReceipt = rows.some((d) => d.receipt);
  return (
    <Box sx={{ mt: 1 }}>
      <Table size="small" aria-label={`Downloads by ${props.recipientName}`}>
        <TableHead>
          <TableRow>
            <TableCell>Started</TableCell>
            <TableCell>Files</TableCell>
            <TableCell>Bytes</TableCell>
            <TableCell>Duration</TableCell>
            <TableCell>IP address</TableCell>
            <TableCell>Result</TableCell>
            <TableCell>Verification</TableCell>
            <TableCell>Receipt</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((d, i) => {
            const receipt = d.receipt
              ? receiptFile(props.packageName, d.receipt.id, d.receipt.receipt)
              : null;
            return (
              <Fragment key={`${d.min_ts}-${i}`}>
                <TableRow data-testid="download-record">
                  <TableCell>{formatDateTime(d.min_ts)}</TableCell>
                  <TableCell data-testid="download-files">
                    {d.covered === undefined || d.files_covered === undefined ? (
                      '…'
                    ) : (
                      <Button
                        size="small"
                        aria-expanded={open === i}
                        onClick={() => setOpen((was) => (was === i ? null : i))}
                      >
                        {coverageLabel(
                          { covered: d.covered, files_covered: d.files_covered },
                          files.length,
                        )}
                      </Button>
                    )}
                  </TableCell>
                  <TableCell>{formatSize(d.bytes)}</TableCell>
                  <TableCell>{Math.round(d.duration)} s</TableCell>
                  <TableCell>{d.ip}</TableCell>
                  <TableCell>{d.is_partial ? 'Partial' : 'Complete'}</TableCell>
                  <TableCell data-testid="download-verification">
                    {d.verification ? verificationLabel[d.verification] : '…'}
                  </TableCell>
                  <TableCell>
                    {receipt ? (
                      <Link href={receipt.href} download={receipt.name}>
                        Receipt (.jws)
                      </Link>
                    ) : (
                      '-'
                    )}
                  </TableCell>
                </TableRow>
                {open === i && d.covered !== undefined && (
                  <TableRow>
                    <TableCell colSpan={8} sx={{ pl: 4 }}>
                      <Box
                        component="ul"
                        aria-label="Files this download delivered"
                        sx={{ m: 0, pl: 2, maxHeight: 240, overflow: 'auto' }}
                      >
                        {coveredPaths({ covered: d.covered }, files).map((path) => (
                          <Typography component="li" variant="body2" key={path}>
                            {path}
                          </Typography>
                        ))}
                      </Box>
                    </TableCell>
                  </TableRow>
                )}
              </Fragment>
            );
          })}
        </TableBody>
      </Table>
      {hasReceipt && (
        <Typography variant="caption" color="text.secondary" component="p" sx={{ mt: 0.5 }}>
          Receipts are signed by this server (JWS, Ed25519); check one with its{' '}
          <Link href={publicKeyHref} target="_blank" rel="noopener">
            public key
          </Link>
          .
        </Typography>
      )}
    </Box>
  );
}
