import { useState, type ChangeEvent, type FormEvent } from 'react';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormLabel from '@mui/material/FormLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import ToggleButton from '@mui/material/ToggleButton';
import ToggleButtonGroup from '@mui/material/ToggleButtonGroup';
import Typography from '@mui/material/Typography';
import {
  aliasOf,
  brandingColours,
  limits,
  type Branding,
  type Contract,
} from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { ProjectAvatar } from '../../components/ProjectAvatar';
import { UnsavedChangesGuard } from '../../components/UnsavedChangesGuard';
import { useToast } from '../../components/toast-context';
import { firstErrors } from '../auth/password-form';
import { useUpdateBrandingMutation } from '../branding/branding-api';
import { brandingColourHex, brandingMessages } from '../branding/branding';
import {
  aliasInput,
  brandingChange,
  brandingFormDirty,
  brandingFormOf,
  brandingProblems,
  logoProblem,
  recheckedProblems,
  type BrandingForm as Form,
} from './branding-form';

type Field = 'name' | 'alias' | 'colour' | 'logo';

/** Name, alias, colour and logo of a project, with a live preview of its avatar. */
export function BrandingForm({ contract, saved }: { contract: Contract; saved: Branding }) {
  const [updateBranding, { isLoading: saving }] = useUpdateBrandingMutation();
  const toast = useToast();
  const [initial, setInitial] = useState<Form>(() => brandingFormOf(saved, contract.name));
  const [form, setForm] = useState<Form>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saveTried, setSaveTried] = useState(false);

  const dirty = brandingFormDirty(form, initial);
  const set = (change: Partial<Form>) => setForm((f) => ({ ...f, ...change }));
  const edit = (change: Pick<Partial<Form>, 'name' | 'alias'>) => {
    const next = { ...form, ...change };
    setForm(next);
    if (saveTried) setErrors((shown) => recheckedProblems(shown, next));
  };
  const preview: Branding = {
    name: form.name,
    slug: contract.slug,
    alias: form.alias || aliasOf(form.name || contract.name),
    colour: form.colour,
    logo: form.logo,
  };

  const chooseLogo = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    const problem = logoProblem(file);
    setErrors((e) => ({ ...e, logo: problem ?? undefined }));
    if (problem) return;
    const reader = new FileReader();
    reader.onload = () => {
      if (typeof reader.result === 'string') set({ logo: reader.result, logoChanged: true });
    };
    reader.onerror = () => setErrors((e) => ({ ...e, logo: brandingMessages.updateFailed }));
    reader.readAsDataURL(file);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaveTried(true);
    const problems = brandingProblems(form);
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    try {
      const branding = await updateBranding({
        params: { contract: contract.slug },
        body: brandingChange(form),
      }).unwrap();
      const next = brandingFormOf(branding, contract.name);
      setInitial(next);
      setForm(next);
      setSaveTried(false);
      toast({ severity: 'success', message: brandingMessages.updated });
    } catch (error) {
      const failed = asApiError(error);
      if (failed) setErrors(firstErrors(failed.fieldErrors));
      toast({ severity: 'error', message: brandingMessages.updateFailed });
    }
  };

  return (
    <Box component="form" onSubmit={submit} noValidate sx={{ maxWidth: 560 }}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center', mb: 2 }}>
        <ProjectAvatar name={contract.name} index={0} branding={preview} size={64} />
        <Box>
          <Typography variant="subtitle1" sx={{ fontWeight: 600 }}>
            {form.name || contract.name}
          </Typography>
          <Typography variant="body2" color="text.secondary">
            How the project appears in the project selector, the top bar and the branded layout.
          </Typography>
        </Box>
      </Stack>
      <TextField
        label="Name"
        name="name"
        required
        value={form.name}
        onChange={(e) => edit({ name: e.target.value })}
        error={Boolean(errors.name)}
        helperText={errors.name ?? `${form.name.length}/${limits.brandingNameMax}`}
        slotProps={{ htmlInput: { maxLength: limits.brandingNameMax } }}
      />
      <TextField
        label="Alias"
        name="alias"
        value={form.alias}
        onChange={(e) => edit({ alias: aliasInput(e.target.value) })}
        error={Boolean(errors.alias)}
        helperText={
          errors.alias ??
          `2 or 3 capital letters. Left empty, the initials of the name: ${aliasOf(form.name || contract.name)}`
        }
      />
      <FormLabel id="branding-colour-label" sx={{ display: 'block', mt: 2, mb: 1 }}>
        Colour
      </FormLabel>
      <ToggleButtonGroup
        exclusive
        aria-labelledby="branding-colour-label"
        value={form.colour}
        onChange={(_e, colour: Branding['colour'] | null) => colour && set({ colour })}
        size="small"
        // Separate swatches rather than one joined bar, so the palette can wrap on narrow screens.
        sx={{
          flexWrap: 'wrap',
          gap: 1,
          '& .MuiToggleButtonGroup-grouped': {
            border: 1,
            borderColor: 'divider',
            borderRadius: 1,
            m: 0,
          },
        }}
      >
        {brandingColours.map((colour) => (
          <ToggleButton key={colour} value={colour} aria-label={colour} sx={{ gap: 1 }}>
            <Box
              sx={{
                width: 18,
                height: 18,
                borderRadius: '50%',
                bgcolor: brandingColourHex[colour],
              }}
            />
            {colour}
          </ToggleButton>
        ))}
      </ToggleButtonGroup>
      {errors.colour && (
        <Typography color="error" variant="body2">
          {errors.colour}
        </Typography>
      )}
      <FormLabel sx={{ display: 'block', mt: 3, mb: 1 }}>Logo</FormLabel>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        {form.logo && (
          <Box
            component="img"
            src={form.logo}
            alt="Logo preview"
            sx={{ width: 80, height: 80, objectFit: 'cover', borderRadius: 1, boxShadow: 1 }}
          />
        )}
        <Button component="label" variant="outlined" size="small">
          Upload logo
          <input hidden type="file" name="logo" accept="image/*" onChange={chooseLogo} />
        </Button>
        {form.logo && (
          <Button size="small" color="error" onClick={() => set({ logo: null, logoChanged: true })}>
            Remove logo
          </Button>
        )}
      </Stack>
      <Typography
        variant="caption"
        color={errors.logo ? 'error' : 'text.secondary'}
        role={errors.logo ? 'alert' : undefined}
        sx={{ display: 'block', mt: 1 }}
      >
        {errors.logo ?? `An image of at most 5 MB; it is cut to a ${limits.logoSizePx} px square.`}
      </Typography>
      <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
        <Button type="submit" variant="contained" disabled={saving}>
          Save
        </Button>
        <Button
          disabled={saving || !dirty}
          onClick={() => {
            setForm(initial);
            setErrors({});
            setSaveTried(false);
          }}
        >
          Discard changes
        </Button>
      </Stack>
      <UnsavedChangesGuard when={dirty} />
    </Box>
  );
}
