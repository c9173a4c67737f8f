import { useState } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import Collapse from '@mui/material/Collapse';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Tooltip from '@mui/material/Tooltip';
import Typography from '@mui/material/Typography';
import PersonRemove from '@mui/icons-material/PersonRemove';
import PhoneIphone from '@mui/icons-material/PhoneIphone';
import type { DownloadHistory, SentPackage, SentRecipient } from '@filerunner/protocol';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useToast } from '../../components/toast-context';
import { recipientMessages } from '../packages/package-screen';
import { UpdateMobileDialog } from './UpdateMobileDialog';
import { DownloadHistoryTable } from './DownloadHistoryTable';
import { useDownloadHistoryQuery, useRemoveRecipientMutation } from './sent-api';
import { downloadStatusLabel, recipientEditable } from './sent-recipients';

/**
 * The recipients of a sent package: each one's download status (none, partial, complete) and
 * history, and the sender's changes: a new mobile for their PIN, or their access removed. A
 * removed recipient stays listed, dimmed, with nothing left to change.
 */
export function SentRecipients({ pkg }: { pkg: SentPackage }) {
  const toast = useToast();
  const [removing, setRemoving] = useState<SentRecipient | null>(null);
  const [editing, setEditing] = useState<SentRecipient | null>(null);
  const [remove, removal] = useRemoveRecipientMutation();
  // The history in depth costs the server a look at every file: read once someone asks.
  const [historyWanted, setHistoryWanted] = useState(false);
  const { data: history } = useDownloadHistoryQuery(
    { params: { slug: pkg.slug } },
    { skip: !historyWanted },
  );

  const confirmRemove = async () => {
    if (!removing) return;
    try {
      await remove({ params: { slug: pkg.slug, userId: removing.id } }).unwrap();
      toast({ severity: 'success', message: recipientMessages.removed });
    } catch {
      toast({ severity: 'error', message: recipientMessages.removeFailed });
    } finally {
      setRemoving(null);
    }
  };

  return (
    <Box sx={{ mt: 3 }}>
      <Typography variant="subtitle1" component="h3">
        Recipients ({pkg.recipients.length})
      </Typography>
      <Stack spacing={1} role="list" aria-label="Recipients" sx={{ mt: 1 }}>
        {pkg.recipients.map((r) => (
          <RecipientRow
            key={r.id}
            recipient={r}
            editable={recipientEditable(pkg, r)}
            onRemove={() => setRemoving(r)}
            onEditMobile={() => setEditing(r)}
            history={history}
            onHistoryOpened={() => setHistoryWanted(true)}
            packageName={pkg.name}
          />
        ))}
      </Stack>
      <ConfirmDialog
        open={removing !== null}
        title="Remove recipient"
        confirmLabel="Remove"
        destructive
        busy={removal.isLoading}
        onCancel={() => setRemoving(null)}
        onConfirm={() => void confirmRemove()}
      >
        {removing &&
          `Remove ${removing.name}'s access to "${pkg.name}"? They will no longer be able to download it.`}
      </ConfirmDialog>
      {editing && (
        <UpdateMobileDialog pkg={pkg} recipient={editing} onClose={() => setEditing(null)} />
      )}
    </Box>
  );
}

function RecipientRow(props: {
  recipient: SentRecipient;
  editable: boolean;
  onRemove: () => void;
  onEditMobile: () => void;
  /** The package's download history in depth, once some recipient's history was opened. */
  history: DownloadHistory | undefined;
  onHistoryOpened: () => void;
  packageName: string;
}) {
  const r = props.recipient;
  const [history, setHistory] = useState(false);
  const status = downloadStatusLabel[r.downloaded];
  return (
    <Box
      role="listitem"
      aria-label={r.name}
      data-testid="recipient"
      data-removed={r.removed || undefined}
      sx={{
        border: 1,
        borderColor: 'divider',
        borderRadius: 1,
        p: 1.5,
        opacity: r.removed ? 0.5 : 1,
      }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }}>
        <Box sx={{ flex: 1, minWidth: 200 }}>
          <Typography variant="body2">{r.name}</Typography>
          <Typography variant="caption" color="text.secondary">
            {r.email}
            {r.mobile ? ` · ${r.mobile}` : ''}
          </Typography>
        </Box>
        {r.removed && <Chip size="small" label="Access removed" />}
        {r.pin_required && (
          <Chip size="small" label={r.pin_verified ? 'PIN verified' : 'PIN required'} />
        )}
        <Chip
          size="small"
          label={status.label}
          color={status.color}
          data-testid="download-status"
        />
        <Button
          size="small"
          onClick={() => {
            setHistory((open) => !open);
            props.onHistoryOpened();
          }}
          aria-expanded={history}
        >
          History ({r.downloads.length})
        </Button>
        <Tooltip title="Update mobile">
          <span>
            <IconButton
              size="small"
              aria-label={`Update the mobile of ${r.name}`}
              disabled={!props.editable}
              onClick={props.onEditMobile}
            >
              <PhoneIphone fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
        <Tooltip title="Remove recipient">
          <span>
            <IconButton
              size="small"
              aria-label={`Remove ${r.name}`}
              disabled={!props.editable}
              onClick={props.onRemove}
            >
              <PersonRemove fontSize="small" />
            </IconButton>
          </span>
        </Tooltip>
      </Stack>
      <Collapse in={history} unmountOnExit>
        <DownloadHistoryTable
          recipientName={r.name}
          downloads={r.downloads}
          detail={props.history?.recipients.find((h) => h.id === r.id)?.downloads}
          files={props.history?.files ?? []}
          packageName={props.packageName}
        />
      </Collapse>
    </Box>
  );
}
