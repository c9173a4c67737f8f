import { useCallback, useEffect, useState } from 'react';
import { useTimeZone } from '../../app/time-zone';
import { emptyShareForm, type ShareForm } from './share-form';

/** How often "now" moves on for the pickers and the period check. */
const TICK_MS = 30_000;

/** The current time, moving on every 30 seconds (the pickers' slots are 30 minutes). */
export function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * The Share form's fields. Switching contract empties what belongs to the contract (recipients
 * and storage location); `reset` starts a new package after a send.
 */
export function useShareForm(contractSlug: string | null) {
  const timeZone = useTimeZone();
  const [form, setForm] = useState<ShareForm>(() => emptyShareForm(new Date(), timeZone));
  const [formContract, setFormContract] = useState(contractSlug);
  if (formContract !== contractSlug) {
    setFormContract(contractSlug);
    setForm((f) => ({ ...f, recipients: [], storageGroup: null }));
  }
  const change = useCallback(
    (update: Partial<ShareForm>) => setForm((f) => ({ ...f, ...update })),
    [],
  );
  const reset = useCallback(() => setForm(emptyShareForm(new Date(), timeZone)), [timeZone]);
  return { form, change, reset };
}
