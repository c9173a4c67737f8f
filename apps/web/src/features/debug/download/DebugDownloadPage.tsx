import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ChangeEvent,
} from 'react';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import LinearProgress from '@mui/material/LinearProgress';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import FolderOpenIcon from '@mui/icons-material/FolderOpen';
import { firstErrorMessage } from '../../../app/api-client';
import { downloadOptionsOf, getHiddenSettings } from '../../hidden-settings/hidden-settings';
import { usePackageDownloadGrantMutation } from '../../inbox/inbox-api';
import { DebugLayout } from '../DebugLayout';
import { Figures } from './DownloadFigures';
import { PackageHistory } from './PackageHistory';
import { runDebugDownload, urlsOf, type DebugSource, messageOf } from './debug-download-run';
import { debugDownloadTexts as texts } from './debug-download-texts';
import { EventRecorder, eventLogOf, parseEventLog, type EventRecord } from './debug-events';
import { applyRecords, emptyView, type DownloadView } from './download-view';
import { EventStore } from './event-store';
import type { ExtractFileState } from '@filerunner/transfer/browser';

// The chart library is loaded when the figures are first shown, not with the page.
const RateCharts = lazy(async () => ({ default: (await import('./RateCharts')).RateCharts }));

/** How often recorded events are folded into what the page shows, while a run or replay goes. */
const VIEW_REFRESH_MS = 100;

interface Replay {
  readonly n: number;
  readonly total: number;
  readonly done: boolean;
}

/**
 * /debug/download: a package or URLs downloaded by the real engine into a folder the person
 * picks, with every event recorded (and saved to a file for support), the rates charted, and
 * a saved log replayed through the same figures, so support staff can see what happened on a
 * person's computer without being there.
 */
export function DebugDownloadPage() {
  const store = useMemo(() => new EventStore(), []);
  useEffect(() => () => store.close(), [store]);

  const [folder, setFolder] = useState<FileSystemDirectoryHandle | null>(null);
  const [folderError, setFolderError] = useState<string | null>(null);
  const [selected, setSelected] = useState<{ slug: string; name: string } | null>(null);
  const [urlsText, setUrlsText] = useState('');
  const [urlsError, setUrlsError] = useState(false);
  const [untar, setUntar] = useState(true);
  const [asyncWrites, setAsyncWrites] = useState(() => getHiddenSettings().asyncFileWriting);

  const [view, setView] = useState<DownloadView>(emptyView);
  const [running, setRunning] = useState<AbortController | null>(null);
  const [replay, setReplay] = useState<Replay | null>(null);
  const [lastRun, setLastRun] = useState<string | null>(null);
  const [logError, setLogError] = useState<string | null>(null);

  // Records arrive faster than a page should draw: they wait here and are folded in together.
  const pending = useRef<EventRecord[]>([]);
  const fileStates = useRef(new Map<number, ExtractFileState>());
  const replayInput = useRef<HTMLInputElement>(null);
  const active = running !== null;

  const foldPending = useCallback(() => {
    const records = pending.current;
    if (records.length === 0) return;
    pending.current = [];
    setView((before) => applyRecords(before, records, fileStates.current));
  }, []);

  useEffect(() => {
    if (!active) return;
    const timer = setInterval(foldPending, VIEW_REFRESH_MS);
    return () => clearInterval(timer);
  }, [active, foldPending]);

  const [grant] = usePackageDownloadGrantMutation();

  const changeDirectory = async (): Promise<FileSystemDirectoryHandle | null> => {
    const { pickDownloadFolder, DownloadFolderError } =
      await import('@filerunner/transfer/browser');
    try {
      const picked = await pickDownloadFolder();
      setFolder(picked);
      setFolderError(null);
      return picked;
    } catch (error) {
      // Closing the picker is a change of mind.
      if (error instanceof DOMException && error.name === 'AbortError') return null;
      setFolderError(
        error instanceof DownloadFolderError && error.code === 'permission_denied'
          ? texts.permissionDenied
          : `${texts.changeDirectoryFailed}: ${messageOf(error)}`,
      );
      return null;
    }
  };

  const download = async () => {
    const urls = urlsOf(urlsText);
    const sources: DebugSource[] = [
      ...(selected
        ? [
            {
              kind: 'package' as const,
              name: selected.name,
              grant: () =>
                grant({ params: { slug: selected.slug } })
                  .unwrap()
                  .catch((failure: unknown) => {
                    throw new Error(firstErrorMessage(failure, 'The package could not be granted'));
                  }),
            },
          ]
        : []),
      ...urls.map((url) => ({ kind: 'url' as const, url })),
    ];
    if (sources.length === 0) {
      setUrlsError(true);
      return;
    }
    const target = folder ?? (await changeDirectory());
    if (!target) return;
    const { requestWritePermission } = await import('@filerunner/transfer/browser');
    if (!(await requestWritePermission(target).catch(() => false))) {
      setFolderError(texts.permissionDenied);
      return;
    }

    const downloadID = crypto.randomUUID();
    const name = [selected?.name, ...urls.map(() => 'URL')].filter(Boolean).join(', ');
    await store.startRun({ downloadID, name, startedAt: Date.now() }).catch(() => undefined);
    const controller = new AbortController();
    pending.current = [];
    fileStates.current = new Map();
    setView(emptyView);
    setReplay(null);
    setLogError(null);
    setLastRun(downloadID);
    setRunning(controller);
    const recorder = new EventRecorder(downloadID, store, (record) => pending.current.push(record));
    try {
      await runDebugDownload({
        sources,
        folder: target,
        untar,
        asyncWrites,
        options: downloadOptionsOf(getHiddenSettings()),
        recorder,
        signal: controller.signal,
      });
    } catch {
      // Recorded, and shown from the record as "Error downloading" with its cause.
    } finally {
      foldPending();
      setRunning(null);
      if (recorder.storeError) {
        setLogError(`${texts.logNotStored}: ${messageOf(recorder.storeError)}`);
      }
    }
  };

  const saveEventLog = async () => {
    if (!lastRun) return;
    try {
      const log = eventLogOf(lastRun, await store.records(lastRun));
      const blob = new Blob([JSON.stringify(log)], { type: 'application/json' });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(blob);
      link.download = `download-events-${lastRun}.json`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
    } catch (error) {
      setLogError(messageOf(error));
    }
  };

  const replayLog = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    let records: readonly EventRecord[];
    try {
      const log = parseEventLog(await file.text());
      records = log.records;
      setLastRun(null);
    } catch (error) {
      setLogError(`${texts.replayFailed}: ${messageOf(error)}`);
      return;
    }
    setLogError(null);
    const map = new Map<number, ExtractFileState>();
    let shown = emptyView;
    setView(shown);
    const total = records.length;
    // Replayed in about a hundred steps, so a person watches the figures move as they did.
    const step = Math.max(1, Math.ceil(total / 100));
    setReplay({ n: 0, total, done: false });
    for (let n = 0; n < total; n += step) {
      const batch = records.slice(n, n + step);
      shown = applyRecords(shown, batch, map);
      const at = Math.min(total, n + step);
      setView(shown);
      setReplay({ n: at, total, done: false });
      await new Promise((resolve) => setTimeout(resolve, 16));
    }
    setReplay({ n: total, total, done: true });
  };

  const replaying = replay !== null && !replay.done;
  const status = statusLine(view, replay, active);

  return (
    <DebugLayout title={texts.title}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        Download a package you received, or files by their URLs, into a folder with the download
        engine, and watch every step. The event log can be saved for support and replayed here.
      </Typography>

      <PackageHistory
        selected={selected?.slug ?? null}
        disabled={active || replaying}
        onSelect={(pkg) => {
          setSelected(pkg);
          setUrlsError(false);
        }}
      />

      <TextField
        label="URLs"
        multiline
        minRows={3}
        fullWidth
        value={urlsText}
        disabled={active || replaying}
        error={urlsError}
        helperText={urlsError ? texts.urlsRequired : texts.urlsHelp}
        onChange={(event) => {
          setUrlsText(event.target.value);
          setUrlsError(false);
        }}
        sx={{ my: 2 }}
      />

      <Stack direction="row" spacing={3} sx={{ mb: 2, flexWrap: 'wrap' }}>
        <FormControlLabel
          control={
            <Switch
              checked={untar}
              disabled={active}
              onChange={(e) => setUntar(e.target.checked)}
            />
          }
          label="Untar"
        />
        <FormControlLabel
          control={
            <Switch
              checked={asyncWrites}
              disabled={active}
              onChange={(e) => setAsyncWrites(e.target.checked)}
            />
          }
          label="Write Files Asynchronously"
        />
      </Stack>

      <Stack direction="row" spacing={2} sx={{ mb: 1, flexWrap: 'wrap', rowGap: 1 }}>
        <Button variant="contained" disabled={active || replaying} onClick={() => void download()}>
          Download
        </Button>
        <Button
          variant="outlined"
          color="error"
          disabled={!active}
          onClick={() => running?.abort()}
        >
          Abort
        </Button>
        <Button
          variant="outlined"
          startIcon={<FolderOpenIcon />}
          disabled={active}
          onClick={() => void changeDirectory()}
        >
          Change Directory
        </Button>
        <Button
          variant="outlined"
          disabled={active || replaying}
          onClick={() => replayInput.current?.click()}
        >
          Replay Event Log File
        </Button>
        <Button
          variant="outlined"
          disabled={active || !lastRun}
          onClick={() => void saveEventLog()}
        >
          Save Event Log
        </Button>
        <input
          ref={replayInput}
          type="file"
          accept="application/json,.json"
          hidden
          aria-label="Event log file"
          onChange={(event: ChangeEvent<HTMLInputElement>) => void replayLog(event.currentTarget)}
        />
      </Stack>
      <Typography data-testid="debug-directory" color="text.secondary" sx={{ mb: 2 }}>
        {folder ? `Directory: ${folder.name}` : texts.noDirectory}
      </Typography>

      {folderError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {folderError}
        </Alert>
      )}
      {logError && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {logError}
        </Alert>
      )}
      {view.error && (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="debug-error">
          <AlertTitle>{texts.errorDownloading}</AlertTitle>
          {view.error}
        </Alert>
      )}

      <Typography
        role="status"
        data-testid="debug-status"
        variant="h6"
        component="p"
        sx={{ mb: 1 }}
      >
        {status}
      </Typography>
      <Typography data-testid="debug-state" variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        State: {view.state}
        {view.name ? ` · ${view.name}` : ''}
      </Typography>

      <Figures view={view} />
      {(view.downloadRates.length > 0 || active) && (
        <Paper variant="outlined" sx={{ p: 1, mt: 2 }}>
          <Suspense fallback={<LinearProgress aria-label="Loading the charts" />}>
            <RateCharts downloadRates={view.downloadRates} extractRates={view.extractRates} />
          </Suspense>
        </Paper>
      )}
    </DebugLayout>
  );
}

function statusLine(view: DownloadView, replay: Replay | null, active: boolean): string {
  if (replay && !replay.done) return texts.replaying(replay.n, replay.total);
  if (active && view.state === 'IDLE') return texts.preparing;
  if (view.state === 'PREPARING') return texts.preparing;
  if (view.state === 'DOWNLOADING') return texts.downloading;
  if (view.aborted) return texts.aborted;
  if (!view.error && view.finished.length > 0) return texts.completed;
  return texts.idle;
}
