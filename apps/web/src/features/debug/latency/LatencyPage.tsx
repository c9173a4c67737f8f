import { useEffect, useState } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import ContentCopyIcon from '@mui/icons-material/ContentCopy';
import RefreshIcon from '@mui/icons-material/Refresh';
import { latencyLimits, type LatencyGroup, type LatencyHost } from '@filerunner/protocol';
import { DebugLayout } from '../DebugLayout';
import { useLatencyHostsQuery } from './latency-api';
import { LatencyChart, type LatencyBar } from './LatencyChart';
import {
  rateLatency,
  summarize,
  timeHost,
  type GroupSummary,
  type LatencyRating,
  type LatencyResult,
} from './latency-check';

export const latencyTexts = {
  title: 'Latency',
  noResponse: 'No response',
  offline: 'Offline',
  measuring: 'Measuring…',
  copied: 'Copied',
  hostsFailed: 'The list of servers could not be loaded.',
} as const;

type View = 'groups' | 'hosts';

/** The bars' colours, darkened for text so that it stays readable on white. */
const ratingText: Record<LatencyRating, string> = {
  good: 'success.dark',
  fair: 'warning.dark',
  poor: 'error.dark',
  failed: 'text.secondary',
};

/** The results of one measuring run, by `group/host` index. */
interface Run {
  run: number;
  results: Record<string, LatencyResult>;
}

/**
 * /debug/latency: how fast each server region, and each link between regions, answers this
 * browser, for support staff finding out with a person why their transfers are slow.
 */
export function LatencyPage() {
  const hostsQuery = useLatencyHostsQuery();
  const groups = hostsQuery.data?.groups;
  // Each Refresh is a new run; results of an earlier run arriving late are dropped.
  const [run, setRun] = useState(0);
  const [measured, setMeasured] = useState<Run>({ run: 0, results: {} });
  const [view, setView] = useState<View>('groups');

  useEffect(() => {
    if (!groups) return;
    const controller = new AbortController();
    groups.forEach((group, g) =>
      group.hosts.forEach((host, h) => {
        void timeHost(host, { name: group.name }, { signal: controller.signal }).then((result) => {
          if (controller.signal.aborted) return;
          setMeasured((before) => ({
            run,
            results: { ...(before.run === run ? before.results : {}), [`${g}/${h}`]: result },
          }));
        });
      }),
    );
    return () => controller.abort();
  }, [groups, run]);

  const current = measured.run === run ? measured.results : {};
  const results = (groups ?? []).map((group, g) =>
    group.hosts.map((_host, h) => current[`${g}/${h}`]),
  );
  const measuring = results.some((row) => row.some((r) => r === undefined));
  const summaries = (groups ?? []).map((group, g) => summarize(group, results[g] ?? []));
  const bars: LatencyBar[] =
    view === 'groups'
      ? (groups ?? []).map((group, g) => ({
          label: group.name,
          latency: summaries[g] ? summaries[g].latency : undefined,
        }))
      : (groups ?? []).flatMap((group, g) =>
          group.hosts.map((host, h) => {
            const result = results[g]?.[h];
            return { label: `${group.name} · ${host.name}`, latency: result?.latency };
          }),
        );

  return (
    <DebugLayout title={latencyTexts.title}>
      <Typography color="text.secondary" sx={{ mb: 2 }}>
        How long each server takes to answer this browser. The fastest region is the best place for
        this computer's transfers.
      </Typography>
      {hostsQuery.isError && (
        <Alert
          severity="error"
          action={<Button onClick={() => void hostsQuery.refetch()}>Retry</Button>}
        >
          {latencyTexts.hostsFailed}
        </Alert>
      )}
      {groups && (
        <>
          <Stack
            direction="row"
            spacing={2}
            sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 2 }}
          >
            <ToggleButtonGroup
              exclusive
              size="small"
              value={view}
              aria-label="Bars for"
              onChange={(_event, next: View | null) => next && setView(next)}
            >
              <ToggleButton value="groups">Regions</ToggleButton>
              <ToggleButton value="hosts">Servers</ToggleButton>
            </ToggleButtonGroup>
            <Button
              variant="outlined"
              startIcon={<RefreshIcon />}
              disabled={measuring}
              onClick={() => setRun((n) => n + 1)}
            >
              Refresh
            </Button>
          </Stack>
          <Paper
            variant="outlined"
            // The chart takes the focus to read its bars out with the arrow keys, but draws no
            // focus of its own: its frame shows it.
            sx={{
              p: 1,
              mb: 3,
              '&:has(:focus-visible)': {
                outline: 2,
                outlineColor: 'primary.main',
                outlineOffset: 2,
              },
            }}
            data-testid="latency-chart"
          >
            <LatencyChart
              bars={bars}
              title={view === 'groups' ? 'Latency by region' : 'Latency by server'}
            />
          </Paper>
          <Stack spacing={2}>
            {groups.map((group, g) => (
              <GroupCard
                key={group.name}
                group={group}
                summary={summaries[g] ?? null}
                results={results[g] ?? []}
              />
            ))}
          </Stack>
        </>
      )}
    </DebugLayout>
  );
}

function latencyText(latency: number | null | undefined): string {
  if (latency === undefined) return latencyTexts.measuring;
  return latency === null ? latencyTexts.noResponse : `${latency} ms`;
}

function GroupCard(props: {
  group: LatencyGroup;
  summary: GroupSummary | null;
  results: readonly (LatencyResult | undefined)[];
}) {
  const { group, summary } = props;
  return (
    <Paper variant="outlined" component="section" aria-label={group.name} sx={{ p: 2 }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
        <Typography variant="h6" component="h2">
          {group.name}
        </Typography>
        {summary && !summary.success && <Chip size="small" label={latencyTexts.offline} />}
        {summary?.success && (
          <Typography sx={{ color: ratingText[rateLatency(summary.latency)] }}>
            {latencyText(summary.latency)}
          </Typography>
        )}
      </Stack>
      <List dense disablePadding>
        {group.hosts.map((host, h) => (
          <HostRow key={`${host.name}-${h}`} host={host} result={props.results[h]} />
        ))}
      </List>
    </Paper>
  );
}

function HostRow({ host, result }: { host: LatencyHost; result: LatencyResult | undefined }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), latencyLimits.copiedMs);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(host.url);
      setCopied(true);
    } catch {
      setCopied(false);
    }
  };
  const latency = result ? result.latency : undefined;
  return (
    <ListItem
      disableGutters
      secondaryAction={
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }}>
          <Typography
            component="span"
            data-testid="host-latency"
            sx={{ color: ratingText[rateLatency(latency ?? null)] }}
          >
            {latencyText(latency)}
          </Typography>
          {copied && (
            <Typography variant="body2" color="success.main" role="status">
              {latencyTexts.copied}
            </Typography>
          )}
          <Tooltip title="Copy URL">
            <IconButton aria-label={`Copy the URL of ${host.name}`} onClick={() => void copy()}>
              <ContentCopyIcon fontSize="small" />
            </IconButton>
          </Tooltip>
        </Stack>
      }
    >
      <ListItemText
        primary={host.name}
        secondary={host.url}
        slotProps={{ secondary: { sx: { wordBreak: 'break-all' } } }}
        sx={{ pr: 24 }}
      />
    </ListItem>
  );
}
