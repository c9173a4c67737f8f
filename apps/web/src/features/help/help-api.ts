import { api } from '@filerunner/protocol';
import { apiSlice, query } from '../../app/api';

/** The product's own help page: where help links lead unless the operator names a help centre. */
export const HELP_PAGE = '/help';

/** Where the help links lead, as the server's HELP_URL setting says. */
export const helpApi = apiSlice.injectEndpoints({
  endpoints: (build) => ({
    helpSettings: query(build, api.help.settings),
  }),
});

export const { useHelpSettingsQuery } = helpApi;

/**
 * Where 'Help', 'Need Help?' and 'Launch Help Center' lead: the operator's help centre, else the
 * help page in the product, also while the answer is on its way or when it could not be read
 * (the error page must offer help even when the server is failing).
 */
export function useHelpUrl(): string {
  return useHelpSettingsQuery().data?.help_url ?? HELP_PAGE;
}
