import { useMemo } from 'react';
import { api, messages, type FilesystemConstraints } from '@filerunner/protocol';
import { apiSlice, query } from '../../app/api';
import { readStored, storageKeys, writeStored } from '../../app/local-storage';

/** The filename constraints the send screen checks names against. */
export const filesystemApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    getFilesystemConstraints: query(build, api.filesystem.constraints, {
      async onQueryStarted(_args, { queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          writeStored(storageKeys.constraints, data);
        } catch {
          console.error(messages.constraints.unavailable);
        }
      },
    }),
  }),
});

export const { useGetFilesystemConstraintsQuery } = filesystemApi;

/**
 * The constraints to check against: the served ones, or when they cannot be fetched the last ones
 * this browser saw, which are still the best guess. `error` says that fetching failed.
 */
export function useFilesystemConstraints(): {
  constraints: FilesystemConstraints | null;
  loading: boolean;
  error: string | null;
} {
  const { data, isLoading, isError } = useGetFilesystemConstraintsQuery();
  const cached = useMemo(
    () => (isError ? readStored<FilesystemConstraints>(storageKeys.constraints) : null),
    [isError],
  );
  return {
    constraints: data ?? cached,
    loading: isLoading,
    error: isError ? messages.constraints.failed : null,
  };
}
