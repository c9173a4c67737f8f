// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { api, type Branding } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { testContract } from '../../app/test-support/contracts';
import { brandingApi } from '../branding/branding-api';
import { projectsApi } from '../projects/projects-api';
import { ProjectSelector } from './ProjectSelector';

afterEach(cleanup);

const NAMES = ['First Project', 'Second Project', 'Third Project', 'Fourth Project'];
const MORE = ['Fifth Project', 'Sixth Project'];

/** The project strip of a person in `names`, tall enough to show every avatar. */
async function openStrip(names: string[], brandings: Branding[] = []) {
  window.innerHeight = 1200;
  const contracts = names.map((name, i) =>
    testContract({ id: i + 1, slug: `p${i + 1}`, name, branding_enabled: true }),
  );
  const { store } = storeAnswering((route) => {
    if (route === api.contracts.list) return contracts;
    if (route === api.branding.list) return brandings;
    throw new Error(`unexpected call ${route.path}`);
  });
  await store.dispatch(projectsApi.endpoints.contracts.initiate());
  await store.dispatch(brandingApi.endpoints.brandings.initiate());
  render(
    <Provider store={store}>
      <ProjectSelector collapsed={false} />
    </Provider>,
  );
  await waitFor(() => expect(avatarText(names[0]!)).not.toBe(''));
}

const avatarText = (name: string) => screen.getByRole('button', { name }).textContent;

describe('the project strip', () => {
  it("tells one person's projects apart when their initials would be the same", async () => {
    await openStrip([...NAMES, ...MORE]);
    const texts = [...NAMES, ...MORE].map(avatarText);
    expect(new Set(texts).size).toBe(texts.length);
    // The first of those with the same initials keeps them; the others read differently.
    expect(avatarText('First Project')).toBe('FP');
    expect(avatarText('Second Project')).toBe('SP');
    expect(texts.filter((t) => t === 'FP' || t === 'SP')).toHaveLength(2);
  });

  it('keeps the alias an admin chose, and moves initials that would read like it', async () => {
    const alias: Branding = { name: 'Sixth', slug: 'p6', alias: 'SP', colour: 'pink', logo: null };
    await openStrip([...NAMES, ...MORE], [alias]);
    expect(avatarText('Sixth')).toBe('SP');
    expect(avatarText('Second Project')).not.toBe('SP');
  });
});
