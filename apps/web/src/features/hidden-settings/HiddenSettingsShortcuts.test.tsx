// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { storageKeys } from '../../app/local-storage';
import { ToastProvider } from '../../components/ToastProvider';
import { hiddenSettingsWarning } from './HiddenSettingsDialog';
import { defaultHiddenSettings, readHiddenSettings, resetHiddenSettings } from './hidden-settings';
import { HiddenSettingsShortcuts } from './HiddenSettingsShortcuts';

beforeEach(() => {
  resetHiddenSettings();
  window.localStorage.clear();
});
afterEach(cleanup);

const press = (letter: string, modifiers: Partial<KeyboardEventInit> = {}) =>
  fireEvent.keyDown(window, {
    key: letter,
    code: `Key${letter}`,
    altKey: true,
    shiftKey: true,
    ...modifiers,
  });

function openApp() {
  render(
    <ToastProvider>
      <p>Any page</p>
      <HiddenSettingsShortcuts />
    </ToastProvider>,
  );
}

const dialog = () => screen.findByRole('dialog', { name: 'FileRunner Settings' });
const slabSwitch = () => screen.getByRole('switch', { name: 'Always use slab files' });
const workersField = () => screen.getByRole('textbox', { name: 'Upload workers' });

describe('the hidden settings dialog', () => {
  it('opens and closes with Alt+Shift+C, with the warning and the three sections', async () => {
    openApp();
    expect(screen.queryByRole('dialog')).toBeNull();
    // Without Alt, or with Ctrl as well, the letter is left alone.
    press('C', { altKey: false });
    press('C', { ctrlKey: true });
    expect(screen.queryByRole('dialog')).toBeNull();

    press('C');
    const open = await dialog();
    within(open).getByText(hiddenSettingsWarning);
    for (const section of ['Upload settings', 'Download settings', 'Chunk download settings']) {
      within(open).getByRole('region', { name: section });
    }
    within(open).getByRole('button', { name: 'Reset settings to default' });

    press('C');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // macOS gives 'Ç' for Option+Shift+C: the key's code still opens it.
    press('C', { key: 'Ç' });
    await dialog();
  });

  it('keeps each change in this browser, and shows it when opened again', async () => {
    openApp();
    press('C');
    await dialog();
    fireEvent.click(slabSwitch());
    fireEvent.change(workersField(), { target: { value: '12' } });
    fireEvent.click(screen.getByRole('switch', { name: 'Async file writing' }));
    expect(readHiddenSettings()).toMatchObject({
      alwaysUseSlabFiles: true,
      uploadWorkers: 12,
      asyncFileWriting: true,
    });

    // A number out of range is told and not kept.
    fireEvent.change(workersField(), { target: { value: '51' } });
    screen.getByText('Enter a whole number from 1 to 50');
    expect(readHiddenSettings().uploadWorkers).toBe(12);

    press('C');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    press('C');
    await dialog();
    expect(slabSwitch()).toHaveProperty('checked', true);
    expect(workersField()).toHaveProperty('value', '12');

    // Emptied, the workers are the project's again.
    fireEvent.change(workersField(), { target: { value: '' } });
    expect(readHiddenSettings().uploadWorkers).toBeNull();
  });

  it('resets every setting to its default', async () => {
    openApp();
    press('C');
    await dialog();
    fireEvent.click(slabSwitch());
    fireEvent.change(workersField(), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('radio', { name: 'Aggressive (Experimental)' }));
    press('C');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    press('P');
    await screen.findByText('Optimised Download has been disabled');
    press('C');
    await dialog();
    expect(readHiddenSettings()).toMatchObject({
      optimizedDownload: false,
      uploadWorkers: 5,
      algorithm: 'aggressive',
    });

    fireEvent.click(screen.getByRole('button', { name: 'Reset settings to default' }));
    expect(readHiddenSettings()).toEqual(defaultHiddenSettings);
    expect(window.localStorage.getItem(storageKeys.hiddenSettings)).toBeNull();
    expect(slabSwitch()).toHaveProperty('checked', false);
    expect(workersField()).toHaveProperty('value', '');
    expect(screen.getByRole('radio', { name: 'Conservative' })).toHaveProperty('checked', true);
  });

  it('lets the download sliders move only while optimised download is on', async () => {
    openApp();
    press('C');
    await dialog();
    const chunkSize = () => screen.getByRole('slider', { name: 'Chunk size' });
    // On by default; support's switch (Alt+Shift+P) locks them, and unlocks them again.
    expect(chunkSize()).toHaveProperty('disabled', false);
    press('P');
    await waitFor(() => expect(chunkSize()).toHaveProperty('disabled', true));
    expect(screen.getByRole('radio', { name: 'Conservative' })).toHaveProperty('disabled', true);
    press('P');
    await waitFor(() => expect(chunkSize()).toHaveProperty('disabled', false));
    fireEvent.change(chunkSize(), { target: { value: 300 } });
    expect(readHiddenSettings().chunkSizeMb).toBe(300);
    expect(chunkSize().getAttribute('aria-valuetext')).toBe('300 MB');
  });

  it('toggles optimised download (on by default) with Alt+Shift+P and says so', async () => {
    openApp();
    expect(readHiddenSettings().optimizedDownload).toBe(true);
    press('P');
    await screen.findByText('Optimised Download has been disabled');
    expect(readHiddenSettings().optimizedDownload).toBe(false);
    press('P');
    await screen.findByText('Optimised Download has been enabled');
    expect(readHiddenSettings().optimizedDownload).toBe(true);
  });
});
