import { lazy, Suspense, useEffect, useState } from 'react';
import { useToast } from '../../components/toast-context';

// Every page loads this listener, the login page first: the dialog and the settings store are
// fetched on the first shortcut, never before.
const HiddenSettingsDialog = lazy(async () => ({
  default: (await import('./HiddenSettingsDialog')).HiddenSettingsDialog,
}));

/** Alt+Shift+<letter>; `code` too, as macOS turns Option+Shift+C into 'Ç'. */
const shortcut = (event: KeyboardEvent, letter: string) =>
  event.altKey &&
  event.shiftKey &&
  !event.ctrlKey &&
  !event.metaKey &&
  (event.key.toUpperCase() === letter || event.code === `Key${letter}`);

/**
 * The hidden shortcuts, on every page whether signed in or not: Alt+Shift+C opens and closes
 * FileRunner Settings, Alt+Shift+P turns optimised download on or off and says so.
 */
export function HiddenSettingsShortcuts() {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [wanted, setWanted] = useState(false);

  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (shortcut(event, 'C')) {
        event.preventDefault();
        setWanted(true);
        setOpen((was) => !was);
      } else if (shortcut(event, 'P')) {
        event.preventDefault();
        void import('./hidden-settings').then(({ toggleOptimizedDownload }) => {
          const state = toggleOptimizedDownload() ? 'enabled' : 'disabled';
          toast({ severity: 'info', message: `Optimised Download has been ${state}` });
        });
      }
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [toast]);

  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <HiddenSettingsDialog open={open} onClose={() => setOpen(false)} />
    </Suspense>
  );
}
