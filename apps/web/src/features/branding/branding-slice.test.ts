import { describe, expect, it } from 'vitest';
import type { Branding } from '@filerunner/protocol';
import { brandingReceived, brandingReducer, loadBrandings } from './branding-slice';

const branding = (slug: string, name: string): Branding => ({
  name,
  slug,
  alias: 'AB',
  colour: 'green',
  logo: null,
});

describe('branding slice', () => {
  it('keeps the loaded brandings by project and replaces one when it is saved', () => {
    const loaded = brandingReducer(
      undefined,
      loadBrandings.fulfilled([branding('a', 'Alpha'), branding('b', 'Beta')], 'req'),
    );
    expect(Object.keys(loaded.bySlug)).toEqual(['a', 'b']);
    const saved = brandingReducer(loaded, brandingReceived(branding('b', 'Bravo')));
    expect(saved.bySlug.b?.name).toBe('Bravo');
    expect(saved.bySlug.a?.name).toBe('Alpha');
  });

  it('records a failed load with the spec message', () => {
    const failed = brandingReducer(
      undefined,
      loadBrandings.rejected(null, 'req', undefined, {
        status: 0,
        message: 'Failed to fetch branding',
      }),
    );
    expect(failed).toMatchObject({ status: 'rejected', error: 'Failed to fetch branding' });
  });
});
