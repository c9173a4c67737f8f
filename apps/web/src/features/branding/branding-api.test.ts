import { describe, expect, it, vi } from 'vitest';
import { api, type Branding } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering } from '../../app/test-support/api-store';
import { brandingApi, selectBrandingsBySlug } from './branding-api';

const branding = (slug: string, name: string): Branding => ({
  name,
  slug,
  alias: 'AB',
  colour: 'green',
  logo: null,
});

const notFound = () => new ApiError('HTTP_ERROR', 404, { detail: 'Not found.' }, 'GET 404');

describe('brandings', () => {
  it('keeps the loaded brandings by project and replaces one when it is saved', async () => {
    const { store } = storeAnswering((route, args) => {
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
    // The saved branding is written into the loaded list once the save has answered.
    await vi.waitFor(() => expect(selectBrandingsBySlug(store.getState()).b?.name).toBe('Bravo'));
    expect(selectBrandingsBySlug(store.getState()).a?.name).toBe('Alpha');
  });

  it("turns a project's first save into its record, in the list and on the tab", async () => {
    const { store } = storeAnswering((route) => {
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
    const saved = () =>
      brandingApi.endpoints.branding.select({ params: { contract: 'c' } })(store.getState());
    await vi.waitFor(() =>
      expect(saved()).toMatchObject({ data: { name: 'Charlie' }, isSuccess: true }),
    );
    expect(saved().error).toBeUndefined();
    expect(selectBrandingsBySlug(store.getState()).c?.name).toBe('Charlie');
  });

  it('leaves every project unbranded when the brandings cannot be read', async () => {
    const { store } = storeAnswering(() => {
      throw new ApiError('HTTP_ERROR', 500, undefined, 'GET 500');
    });
    await store.dispatch(brandingApi.endpoints.brandings.initiate());
    expect(selectBrandingsBySlug(store.getState())).toEqual({});
  });
});
