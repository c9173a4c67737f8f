import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import LinearProgress from '@mui/material/LinearProgress';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import DownloadIcon from '@mui/icons-material/Download';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import { defaultFilesystemConstraints, latencyLimits } from '@filerunner/protocol';
import { useAppSelector } from '../../../app/hooks';
import { useFilesystemConstraints } from '../../filesystem/filesystem-api';
import { DebugLayout } from '../DebugLayout';
import { useLatencyHostsQuery } from '../latency/latency-api';
import { timeHost, type LatencyResult } from '../latency/latency-check';
import {
  checkFolderNames,
  preflightReport,
  storageRoundTrip,
  type PreflightResult,
} from './preflight-check';
import { useCreatePreflightProbeMutation, useRemovePreflightProbeMutation } from './preflight-api';

// Chromium's directory picker, which TypeScript's DOM library does not declare yet.
interface DirectoryPickerWindow {
  showDirectoryPicker(options?: {
    mode?: 'read' | 'readwrite';
  }): Promise<FileSystemDirectoryHandle>;
}

type Step = 'latency' | 'names' | 'round trip';

export const preflightTexts = {
  title: 'Pre-flight check',
  noFolder: 'No folder chosen: the names check is left out.',
  folderFailed: 'The folder could not be opened',
  running: (step: Step) => `Checking ${step}…`,
  copied: 'Report copied',
  copyFailed: 'The report could not be copied; download it instead.',
} as const;

/**
 * /debug/preflight: before a big transfer, one check of what usually goes wrong: which server
 * region answers fastest, which names in the folder to be sent recipients could not unpack (with
 * a name to rename each to), and whether this browser can store and read back bytes in the
 * person's storage. The report goes to support as text.
 */
export function PreflightPage() {
  const user = useAppSelector((s) => s.auth.user);
  const hosts = useLatencyHostsQuery();
  const { constraints } = useFilesystemConstraints();
  const [createProbe] = useCreatePreflightProbeMutation();
  const [removeProbe] = useRemovePreflightProbeMutation();

  const [folder, setFolder] = useState<FileSystemDirectoryHandle | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);
  const [step, setStep] = useState<Step | null>(null);
  const [result, setResult] = useState<PreflightResult | null>(null);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);

  useEffect(() => {
    if (copied !== 'yes') return;
    const timer = setTimeout(() => setCopied(null), latencyLimits.copiedMs);
    return () => clearTimeout(timer);
  }, [copied]);

  const chooseFolder = async () => {
    try {
      const picker = window as unknown as DirectoryPickerWindow;
      setFolder(await picker.showDirectoryPicker({ mode: 'read' }));
      setFolderError(null);
    } catch (error) {
      if (error instanceof DOMException && error.name === 'AbortError') return;
      setFolderError(`${preflightTexts.folderFailed}: ${(error as Error).message}`);
    }
  };

  const run = async () => {
    setResult(null);
    setCopied(null);
    setStep('latency');
    const groups = hosts.data?.groups ?? (await hosts.refetch()).data?.groups ?? [];
    const latency: LatencyResult[] = await Promise.all(
      groups.flatMap((group) => group.hosts.map((host) => timeHost(host, { name: group.name }))),
    );
    let names = null;
    if (folder) {
      setStep('names');
      try {
        names = await checkFolderNames(folder, constraints ?? defaultFilesystemConstraints);
      } catch (error) {
        setFolderError(`${preflightTexts.folderFailed}: ${(error as Error).message}`);
      }
    }
    setStep('round trip');
    const roundTrip = await storageRoundTrip({
      create: () => createProbe().unwrap(),
      remove: (id) => removeProbe({ params: { id } }).unwrap(),
    });
    setResult({
      at: new Date(),
      user: user?.email ?? null,
      browser: navigator.userAgent,
      latency,
      names,
      roundTrip,
    });
    setStep(null);
  };

  const report = result ? preflightReport(result) : null;

  const copy = async () => {
    if (!report) return;
    try {
      await navigator.clipboard.writeText(report);
      setCopied('yes');
    } catch {
      setCopied('failed');
    }
  };

  const download = () => {
    if (!report || !result) return;
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([report], { type: 'text/plain' }));
    link.download = `filerunner-preflight-${result.at.toISOString().replace(/[:.]/g, '-')}.txt`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  };

  return (
    <DebugLayout title={preflightTexts.title}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Before sending or receiving a large package: times each server region, checks the names in a
        folder against the names recipients can unpack, and stores then reads back a small file in
        your storage. The report can be copied or downloaded for support.
      </Typography>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Button
          variant="outlined"
          startIcon={<FolderOpenIcon />}
          disabled={step !== null}
          onClick={() => void chooseFolder()}
        >
          {folder ? 'Change folder' : 'Choose folder'}
        </Button>
        <Typography data-testid="preflight-folder">
          {folder ? `Folder: ${folder.name}` : preflightTexts.noFolder}
        </Typography>
      </Stack>
      {folderError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {folderError}
        </Alert>
      )}
      <Button variant="contained" disabled={step !== null} onClick={() => void run()}>
        Run pre-flight check
      </Button>
      {step && (
        <Stack sx={{ mt: 2 }} spacing={1}>
          <Typography role="status">{preflightTexts.running(step)}</Typography>
          <LinearProgress aria-label="Pre-flight check running" />
        </Stack>
      )}
      {result && report && (
        <Stack spacing={2} sx={{ mt: 3 }}>
          <Alert
            severity={result.roundTrip.ok ? 'success' : 'error'}
            data-testid="preflight-round-trip"
          >
            {result.roundTrip.ok
              ? `Storage round trip succeeded: uploaded in ${result.roundTrip.uploadMs} ms, ranged download in ${result.roundTrip.downloadMs} ms, probe removed.`
              : (result.roundTrip.error ?? 'The storage round trip failed.')}
          </Alert>
          {result.names && (
            <Paper variant="outlined" component="section" aria-label="Refused names" sx={{ p: 2 }}>
              <Typography variant="h6" component="h2">
                Names in {result.names.folder}
              </Typography>
              <Typography color="text.secondary">
                {result.names.checked} names checked, {result.names.refused.length} refused.
              </Typography>
              <List dense>
                {result.names.refused.map((refused) => (
                  <ListItem key={refused.path} divider>
                    <Chip size="small" color="error" label="Refused" sx={{ mr: 2 }} />
                    <ListItemText
                      primary={refused.path}
                      secondary={`${refused.reason}. Suggested name: ${refused.suggestion ?? 'none found'}`}
                      slotProps={{ primary: { sx: { wordBreak: 'break-all' } } }}
                    />
                  </ListItem>
                ))}
              </List>
            </Paper>
          )}
          <Paper variant="outlined" component="section" aria-label="Report" sx={{ p: 2 }}>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 1 }}>
              <Typography variant="h6" component="h2" sx={{ flex: 1 }}>
                Report
              </Typography>
              {copied === 'yes' && (
                <Typography color="success.main" role="status">
                  {preflightTexts.copied}
                </Typography>
              )}
              <Button startIcon={<ContentCopyIcon />} onClick={() => void copy()}>
                Copy report
              </Button>
              <Button startIcon={<DownloadIcon />} onClick={download}>
                Download report
              </Button>
            </Stack>
            {copied === 'failed' && <Alert severity="warning">{preflightTexts.copyFailed}</Alert>}
            <Typography
              component="pre"
              data-testid="preflight-report"
              sx={{ whiteSpace: 'pre-wrap', fontFamily: 'monospace', fontSize: 13, m: 0 }}
            >
              {report}
            </Typography>
          </Paper>
        </Stack>
      )}
    </DebugLayout>
  );
}
