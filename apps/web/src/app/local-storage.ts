/**
 * localStorage that never throws: private modes and full quotas must not break the app, they only
 * lose what would have been remembered.
 */
export function readStored<T>(key: string): T | null {
  try {
    const raw = window.localStorage.getItem(key);
    return raw === null ? null : (JSON.parse(raw) as T);
  } catch {
    return null;
  }
}

export function writeStored(key: string, value: unknown): void {
  try {
    if (value === null || value === undefined) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // Nothing to do: the value is simply not remembered.
  }
}

export const storageKeys = {
  /** The signed-in user; also the session marker other tabs watch. */
  user: 'filerunner.user',
  selectedContract: 'filerunner.selectedContract',
  /** The last filename constraints served, used when they cannot be fetched. */
  constraints: 'filerunner.constraints',
  /** The hidden settings dialog's choices (features/hidden-settings). */
  hiddenSettings: 'filerunner.hiddenSettings',
} as const;
