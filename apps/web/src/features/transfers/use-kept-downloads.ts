import { useEffect } from 'react';
import { useAppDispatch } from '../../app/hooks';
import { restoreDownloads } from './download-actions';

/**
 * Offers again, once per owner, the folder downloads an earlier page of theirs left unfinished,
 * and keeps theirs from now on; `null` while nobody is known (signed out).
 */
export function useKeptDownloads(owner: string | null): void {
  const dispatch = useAppDispatch();
  useEffect(() => {
    if (owner !== null) void dispatch(restoreDownloads(owner));
  }, [owner, dispatch]);
}
