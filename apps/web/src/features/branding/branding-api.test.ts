import { configureStore } from '@reduxjs/toolkit';
import { describe, expect, it } from 'vitest';
import { api, type ApiRoute, type Branding } from '@filerunner/protocol';
import { apiSlice } from '../../app/api';
import { ApiError, type ApiClient } from '../../app/api-client';
import { brandingApi, selectBrandingsBySlug } from './branding-api';

const branding = (slug: string, name: string): Branding => ({
  name,
  slug,
  alias: 'AB',
  colour: 'green',
  logo: null,
});

/** A store with the app's API slice over a client that answers from `answer`. */
function storeAnswering(answer: (route: ApiRoute, args: unknown) => unknown) {
  const client = { call: async (route: ApiRoute, args: unknown) => answer(route, args) };
  return configureStore({
    reducer: { [apiSlice.reducerPath]: apiSlice.reducer },
    middleware: (getDefault) =>
      getDefault({ thunk: { extraArgument: { api: client as ApiClient } } }).concat(
        apiSlice.middleware,
      ),
  });
}

/** The cache writes that follow a save's answer. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 0));
const notFound = () => new ApiError('HTTP_ERROR', 404, { detail: 'Not found.' }, 'GET 404');

describe('brandings', () => {
  it('keeps the loaded brandings by project and replaces one when it is saved', async () => {
    const store = storeAnswering((route, args) => {
      if (route === api.branding.list) return [branding('a', 'Alpha'), branding('b', 'Beta')];
      if (route === api.branding.update)
        return { ...branding('b', 'Bravo'), ...(args as { body: object }).body };
      throw notFound();
    });
    await store.dispatch(brandingApi.endpoints.brandings.initiate());
    expect(Object.keys(selectBrandingsBySlug(store.getState()))).toEqual(['a', 'b']);

    await store.dispatch(
      brandingApi.endpoints.updateBranding.initiate({
        params: { contract: 'b' },
        body: { name: 'Bravo' },
      }),
    );
    await settled();
    const bySlug = selectBrandingsBySlug(store.getState());
    expect(bySlug.b?.name).toBe('Bravo');
    expect(bySlug.a?.name).toBe('Alpha');
  });

  it("turns a project's first save into its record, in the list and on the tab", async () => {
    const store = storeAnswering((route) => {
      if (route === api.branding.list) return [];
      if (route === api.branding.update) return branding('c', 'Charlie');
      throw notFound();
    });
    await store.dispatch(brandingApi.endpoints.brandings.initiate());
    const tab = await store.dispatch(
      brandingApi.endpoints.branding.initiate({ params: { contract: 'c' } }),
    );
    expect(tab.error).toMatchObject({ status: 404 });

    await store.dispatch(
      brandingApi.endpoints.updateBranding.initiate({
        params: { contract: 'c' },
        body: { name: 'Charlie' },
      }),
    );
    await settled();
    const saved = brandingApi.endpoints.branding.select({ params: { contract: 'c' } })(
      store.getState(),
    );
    expect(saved).toMatchObject({ data: { name: 'Charlie' }, isSuccess: true });
    expect(saved.error).toBeUndefined();
    expect(selectBrandingsBySlug(store.getState()).c?.name).toBe('Charlie');
  });

  it('leaves every project unbranded when the brandings cannot be read', async () => {
    const store = storeAnswering(() => {
      throw new ApiError('HTTP_ERROR', 500, undefined, 'GET 500');
    });
    await store.dispatch(brandingApi.endpoints.brandings.initiate());
    expect(selectBrandingsBySlug(store.getState())).toEqual({});
  });
});
