import { useMemo, useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { skipToken } from '@reduxjs/toolkit/query';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { intendedFilesOf } from '@filerunner/transfer';
import { useAppDispatch, useAppSelector } from '../../app/hooks';
import { useFilesystemConstraints } from '../filesystem/filesystem-api';
import {
  uploadWorkersOf,
  useHiddenSettings,
  usesSlabFiles,
} from '../hidden-settings/hidden-settings';
import { contractSelected } from '../projects/projects-slice';
import { selectContracts, selectSelectedContract } from '../projects/projects-api';
import { AccessPeriodFields } from './AccessPeriodFields';
import { handlesToKeep } from './file-selection';
import { ContractField, MessageField, NameField, PinToggle, StorageField } from './PackageFields';
import { RecipientList } from './RecipientList';
import { RecipientsPicker } from './RecipientsPicker';
import { SentNotice } from './SentNotice';
import { useRecipientsQuery } from './share-api';
import { createPackageBody, sendDisabled, sendProblems, type ShareField } from './share-form';
import { ShareFilesSection } from './ShareFilesSection';
import { useFileSelection } from './use-file-selection';
import { useSendPackage } from './use-send-package';
import { useNow, useShareForm } from './use-share-form';

/** /share: the send-package form. Needs send permission in the selected project. */
export function SharePage() {
  const dispatch = useAppDispatch();
  const allContracts = useAppSelector(selectContracts);
  const contracts = useMemo(() => allContracts.filter((c) => c.permissions.send), [allContracts]);
  const selected = useAppSelector(selectSelectedContract);
  const contract = selected?.permissions.send ? selected : null;
  const showStorage = useAppSelector((s) => s.auth.user?.show_select_storage ?? false);
  const now = useNow();
  const { form, change, reset } = useShareForm(contract?.slug ?? null);
  const { constraints } = useFilesystemConstraints();
  const hidden = useHiddenSettings();
  const files = useFileSelection({
    constraints,
    useSlabFiles: usesSlabFiles(hidden, contract?.settings),
  });
  const recipients = useRecipientsQuery(contract ? { params: { slug: contract.slug } } : skipToken);
  const { send, sending, failure } = useSendPackage();
  const [pressed, setPressed] = useState(false);
  const [sent, setSent] = useState<{ id: string; name: string } | null>(null);

  const fileCount = files.plan.totalFiles;
  const problems = sendProblems(form, contract, fileCount, now);
  const disabled = sendDisabled(form, contract, fileCount, sending);
  // Field messages wait for the first press; the first problem is always shown by the button.
  const fieldError = (field: ShareField) =>
    pressed ? problems.find((p) => p.field === field)?.message : undefined;
  const pinMode = contract?.settings.pin_verification ?? 'none';

  const onSend = async () => {
    setPressed(true);
    if (problems.length > 0 || !contract) return;
    const pkg = await send({
      body: createPackageBody(form, contract, intendedFilesOf(files.plan)),
      plan: files.plan,
      picked: handlesToKeep(files.selection),
      workers: uploadWorkersOf(hidden, contract.settings),
    });
    if (!pkg) return;
    setSent({ id: pkg.slug, name: pkg.name });
    reset();
    files.clear();
    setPressed(false);
  };

  return (
    <Box sx={{ p: 3 }}>
      <Stack direction="row" sx={{ alignItems: 'baseline', justifyContent: 'space-between' }}>
        <Typography variant="h5" component="h1" gutterBottom>
          Share
        </Typography>
        {/* Before a big package: latency, names recipients cannot unpack, a storage round trip. */}
        <Link component={RouterLink} to="/debug/preflight" variant="body2">
          Run a pre-flight check
        </Link>
      </Stack>
      {sent && <SentNotice {...sent} onClose={() => setSent(null)} />}
      <Paper sx={{ p: 3, mt: 2 }}>
        <Box sx={{ display: 'grid', gap: 3, gridTemplateColumns: { xs: '1fr', lg: '1fr 1fr' } }}>
          <Stack spacing={2}>
            <ContractField
              contracts={contracts}
              value={contract?.slug ?? null}
              error={fieldError('contract')}
              disabled={sending}
              onChange={(slug) => dispatch(contractSelected(slug))}
            />
            <NameField
              value={form.name}
              error={fieldError('name')}
              disabled={sending}
              onChange={(name) => change({ name })}
            />
            <PinToggle
              mode={pinMode}
              chosen={form.pinVerify}
              disabled={sending}
              onChange={(pinVerify) => change({ pinVerify })}
            />
            <RecipientsPicker
              groups={recipients.data ?? []}
              loading={recipients.isFetching}
              chosen={form.recipients}
              canAddAdHoc={contract?.settings.can_add_ad_hoc ?? false}
              error={fieldError('recipients')}
              disabled={sending || !contract}
              onChange={(list) => change({ recipients: list })}
            />
            <RecipientList
              recipients={form.recipients}
              pinMode={pinMode}
              pinVerify={form.pinVerify}
              disabled={sending}
              onChange={(list) => change({ recipients: list })}
            />
            <MessageField
              value={form.message}
              disabled={sending}
              onChange={(message) => change({ message })}
            />
            {showStorage && contract && (
              <StorageField
                contract={contract}
                value={form.storageGroup}
                disabled={sending}
                onChange={(storageGroup) => change({ storageGroup })}
              />
            )}
            <AccessPeriodFields
              validFrom={form.validFrom}
              validTo={form.validTo}
              now={now}
              error={fieldError('period')}
              disabled={sending}
              onChange={change}
            />
          </Stack>
          <ShareFilesSection files={files} error={fieldError('files')} disabled={sending} />
        </Box>
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mt: 3 }}>
          <Button
            variant="contained"
            size="large"
            disabled={disabled}
            onClick={() => void onSend()}
          >
            {sending ? 'Sending…' : 'Send Package'}
          </Button>
          {problems[0] && (
            <Typography
              variant="body2"
              role="status"
              data-testid="send-problem"
              color={pressed ? 'error' : 'text.secondary'}
            >
              {problems[0].message}
            </Typography>
          )}
        </Stack>
        {failure && (
          <Alert severity="error" sx={{ mt: 2 }}>
            {failure}
          </Alert>
        )}
      </Paper>
    </Box>
  );
}
