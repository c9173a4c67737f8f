// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { api } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { ErrorPage } from '../shell/ErrorPage';

afterEach(cleanup);

/** The error page over a server whose help setting is `helpUrl`. */
function openErrorPage(helpUrl: string | null) {
  const { store } = storeAnswering((route) => {
    if (route === api.help.settings) return { help_url: helpUrl };
    throw new Error(`unexpected call ${route.path}`);
  });
  render(
    <Provider store={store}>
      <ErrorPage />
    </Provider>,
  );
  return screen.getByRole('link', { name: 'Launch Help Center' });
}

describe('the help links', () => {
  it("open the operator's help centre when the server names one", async () => {
    const link = openErrorPage('https://help.example.com/filerunner');
    await waitFor(() =>
      expect(link.getAttribute('href')).toBe('https://help.example.com/filerunner'),
    );
  });

  it('open the help page in the product otherwise', async () => {
    const link = openErrorPage(null);
    await waitFor(() => expect(link.getAttribute('href')).toBe('/help'));
  });
});
