import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogContentText from '@mui/material/DialogContentText';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { adminMessages, reportPeriods, todayIso } from '@filerunner/protocol';
import { firstErrorMessage } from '../../app/api-client';
import { useExportActivityCsvMutation } from './activity-api';
import {
  exportBody,
  exportProblem,
  reportDelayNote,
  reportPeriodLabels,
  type ExportForm,
  type ReportPeriod,
} from './export-form';

const initialForm: ExportForm = { period: '7', dateFrom: '', dateTo: '' };
const exportFailed = "Sorry, we couldn't request that report. Please try again.";

/** 'Export to CSV': picks a period and asks the server to mail the report. */
export function ExportCsvDialog(props: { open: boolean; slug: string; onClose: () => void }) {
  const [form, setForm] = useState<ExportForm>(initialForm);
  const [error, setError] = useState<string | null>(null);
  const [exportCsv, { isLoading: sending }] = useExportActivityCsvMutation();
  const [queued, setQueued] = useState<{ from: string; to: string } | null>(null);
  // The server's reports run on UTC days, so "today" is the UTC date.
  const today = todayIso();

  const set = (change: Partial<ExportForm>) => setForm((f) => ({ ...f, ...change }));
  const close = () => {
    setForm(initialForm);
    setError(null);
    setQueued(null);
    props.onClose();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = exportProblem(form, today);
    setError(problem);
    if (problem) return;
    try {
      const answer = await exportCsv({
        params: { slug: props.slug },
        body: exportBody(form),
      }).unwrap();
      setQueued({ from: answer.date_from, to: answer.date_to });
    } catch (failure) {
      setError(firstErrorMessage(failure, exportFailed));
    }
  };

  return (
    <Dialog open={props.open} onClose={close} fullWidth maxWidth="xs">
      {queued ? (
        <>
          <DialogTitle>Export to CSV</DialogTitle>
          <DialogContent>
            <Alert severity="success">
              {adminMessages.reportQueued} {reportDelayNote}
            </Alert>
            <DialogContentText sx={{ mt: 2 }}>
              The report covers {queued.from} to {queued.to} (UTC).
            </DialogContentText>
          </DialogContent>
          <DialogActions>
            <Button variant="contained" onClick={close}>
              Done
            </Button>
          </DialogActions>
        </>
      ) : (
        <form onSubmit={submit} noValidate>
          <DialogTitle>Export to CSV</DialogTitle>
          <DialogContent>
            <DialogContentText>
              The report of the packages sent in the period is emailed to you as a CSV file.{' '}
              {reportDelayNote}
            </DialogContentText>
            {error && (
              <Alert severity="error" sx={{ mt: 2 }}>
                {error}
              </Alert>
            )}
            <RadioGroup
              name="report_period"
              aria-label="Report period"
              value={form.period}
              onChange={(_e, period) => set({ period: period as ReportPeriod })}
              sx={{ mt: 1 }}
            >
              {reportPeriods.map((period) => (
                <FormControlLabel
                  key={period}
                  value={period}
                  control={<Radio />}
                  label={reportPeriodLabels[period]}
                />
              ))}
            </RadioGroup>
            {form.period === 'custom' && (
              <Stack direction="row" spacing={2}>
                <TextField
                  label="Start date"
                  type="date"
                  value={form.dateFrom}
                  onChange={(e) => set({ dateFrom: e.target.value })}
                  slotProps={{ inputLabel: { shrink: true }, htmlInput: { max: today } }}
                />
                <TextField
                  label="End date"
                  type="date"
                  value={form.dateTo}
                  onChange={(e) => set({ dateTo: e.target.value })}
                  slotProps={{
                    inputLabel: { shrink: true },
                    htmlInput: { min: form.dateFrom || undefined, max: today },
                  }}
                />
              </Stack>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={close}>Cancel</Button>
            <Button type="submit" variant="contained" disabled={sending}>
              Export
            </Button>
          </DialogActions>
        </form>
      )}
    </Dialog>
  );
}
