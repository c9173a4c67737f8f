import { lazy, Suspense, useState } from 'react';
import type { PinDialogProps } from './PinDialog';

// The dialog's code (its six inputs, TextField among them) comes when it first opens: most
// packages have no PIN, and the Inbox and the external page show sooner without it.
const PinDialog = lazy(async () => ({ default: (await import('./PinDialog')).PinDialog }));

/** PinDialog, loaded and mounted from its first opening on (so closing keeps its transition). */
export function LazyPinDialog(props: PinDialogProps) {
  const [opened, setOpened] = useState(props.open);
  if (props.open && !opened) setOpened(true);
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <PinDialog {...props} />
    </Suspense>
  );
}
