import { useState, type ReactNode } from 'react';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControlLabel from '@mui/material/FormControlLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Slider from '@mui/material/Slider';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { settingsMessages, WORKERS_MAX, WORKERS_MIN } from '../settings/settings-form';
import {
  downloadAlgorithmLabels,
  downloadAlgorithms,
  resetHiddenSettings,
  sliderRanges,
  updateHiddenSettings,
  useHiddenSettings,
  type DownloadAlgorithm,
  type HiddenSettings,
  type SliderSetting,
} from './hidden-settings';

export const hiddenSettingsWarning =
  'Changing these settings can affect the speed and reliability of your transfers. Only change them under the guidance of FileRunner support.';

type BooleanSetting = {
  [K in keyof HiddenSettings]: HiddenSettings[K] extends boolean ? K : never;
}[keyof HiddenSettings];

function SettingSwitch(props: {
  setting: BooleanSetting;
  label: string;
  settings: HiddenSettings;
}) {
  return (
    <FormControlLabel
      control={
        <Switch
          checked={props.settings[props.setting]}
          onChange={(_event, checked) => updateHiddenSettings({ [props.setting]: checked })}
        />
      }
      label={props.label}
    />
  );
}

const seconds = (ms: number) => `${ms / 1000} s`;

function SettingSlider(props: {
  setting: SliderSetting;
  label: string;
  settings: HiddenSettings;
  disabled: boolean;
  show?: (value: number) => string;
}) {
  const value = props.settings[props.setting];
  const shown = (props.show ?? String)(value);
  const labelId = `hidden-setting-${props.setting}`;
  return (
    <div>
      <Typography variant="body2">
        <span id={labelId}>{props.label}</span>: {shown}
      </Typography>
      <Slider
        {...sliderRanges[props.setting]}
        value={value}
        disabled={props.disabled}
        aria-labelledby={labelId}
        getAriaValueText={props.show}
        valueLabelDisplay="auto"
        valueLabelFormat={props.show}
        onChange={(_event, next) => updateHiddenSettings({ [props.setting]: next })}
      />
    </div>
  );
}

function Section(props: { title: string; children: ReactNode }) {
  return (
    <Stack component="section" spacing={1} aria-label={props.title}>
      <Typography variant="subtitle1" component="h3">
        {props.title}
      </Typography>
      {props.children}
    </Stack>
  );
}

/** Upload workers as typed: null when empty (the project's), undefined when not 1 to 50. */
function workersOf(text: string): number | null | undefined {
  const typed = text.trim();
  if (typed === '') return null;
  const workers = Number(typed);
  return /^\d+$/.test(typed) && workers >= WORKERS_MIN && workers <= WORKERS_MAX
    ? workers
    : undefined;
}

/** Empty leaves the workers to the project; an entry out of range is shown, not kept. */
function UploadWorkersField({ settings }: { settings: HiddenSettings }) {
  const [text, setText] = useState(settings.uploadWorkers?.toString() ?? '');
  const bad = workersOf(text) === undefined;
  return (
    <TextField
      label="Upload workers"
      value={text}
      error={bad}
      helperText={bad ? settingsMessages.workersRange : "Leave empty to use the project's setting"}
      slotProps={{ htmlInput: { inputMode: 'numeric' } }}
      onChange={(event) => {
        setText(event.target.value);
        const workers = workersOf(event.target.value);
        if (workers !== undefined) updateHiddenSettings({ uploadWorkers: workers });
      }}
      sx={{ maxWidth: 280 }}
    />
  );
}

function HiddenSettingsForm() {
  const settings = useHiddenSettings();
  const locked = !settings.optimizedDownload;
  const slider = (setting: SliderSetting, label: string, show?: (value: number) => string) => (
    <SettingSlider
      setting={setting}
      label={label}
      settings={settings}
      disabled={locked}
      show={show}
    />
  );
  return (
    <Stack spacing={3}>
      <Alert severity="warning">{hiddenSettingsWarning}</Alert>
      <Section title="Upload settings">
        <SettingSwitch
          setting="alwaysUseSlabFiles"
          label="Always use slab files"
          settings={settings}
        />
        <Typography variant="body2" color="text.secondary">
          When off, the project&apos;s setting decides.
        </Typography>
        <UploadWorkersField settings={settings} />
      </Section>
      <Section title="Download settings">
        <Typography variant="body2" color="text.secondary">
          Optimised download is {settings.optimizedDownload ? 'on' : 'off'} (Alt+Shift+P); the
          sliders and the algorithm can be changed only while it is on.
        </Typography>
        <SettingSwitch
          setting="extractFromArchive"
          label="Extract files from archive"
          settings={settings}
        />
        <SettingSwitch setting="asyncFileWriting" label="Async file writing" settings={settings} />
        {slider('chunkSizeMb', 'Chunk size', (mb) => `${mb} MB`)}
        {slider('concurrentChunks', 'Concurrent chunks')}
        {slider('retries', 'Retries')}
        <RadioGroup
          aria-label="Algorithm"
          value={settings.algorithm}
          onChange={(_event, algorithm) =>
            updateHiddenSettings({ algorithm: algorithm as DownloadAlgorithm })
          }
        >
          {downloadAlgorithms.map((algorithm) => (
            <FormControlLabel
              key={algorithm}
              value={algorithm}
              control={<Radio />}
              label={downloadAlgorithmLabels[algorithm]}
              disabled={locked}
            />
          ))}
        </RadioGroup>
      </Section>
      <Section title="Chunk download settings">
        {slider('xhrTimeoutMs', 'Request timeout', seconds)}
        {slider('workerTimeoutMs', 'Worker timeout', seconds)}
        {slider('progressIntervalMs', 'Progress interval', seconds)}
        {slider('rateCheckIntervalMs', 'Rate check interval', seconds)}
      </Section>
    </Stack>
  );
}

/**
 * FileRunner Settings, the dialog support walks a person through (Alt+Shift+C). Every change is
 * kept at once in this browser; there is no role check, as signed-out pages open it too.
 */
export function HiddenSettingsDialog(props: { open: boolean; onClose: () => void }) {
  // A reset shows the form afresh, so a half-typed entry goes with the stored values.
  const [resets, setResets] = useState(0);
  return (
    <Dialog
      open={props.open}
      onClose={props.onClose}
      aria-labelledby="hidden-settings-title"
      maxWidth="sm"
      fullWidth
    >
      <DialogTitle id="hidden-settings-title">FileRunner Settings</DialogTitle>
      <DialogContent>
        <HiddenSettingsForm key={resets} />
      </DialogContent>
      <DialogActions>
        <Button
          color="warning"
          onClick={() => {
            resetHiddenSettings();
            setResets((n) => n + 1);
          }}
        >
          Reset settings to default
        </Button>
        <Button variant="contained" onClick={props.onClose}>
          Close
        </Button>
      </DialogActions>
    </Dialog>
  );
}
