// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, render, screen, within } from '@testing-library/react';
import { api } from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { testContract } from '../../app/test-support/contracts';
import { ContractLimits } from './ContractLimits';

afterEach(cleanup);

/** The limits section of `demo`, whose storage call answers `storage`. */
function showLimits(storage: unknown) {
  const { store, calls } = storeAnswering((route) => {
    if (route !== api.contracts.storage) throw new Error(`unexpected call ${route.path}`);
    return storage;
  });
  render(
    <Provider store={store}>
      <ContractLimits contract={testContract({ storage_quota: 5e11, max_package_size: null })} />
    </Provider>,
  );
  return { calls, section: screen.getByRole('region', { name: 'Storage limits' }) };
}

const rowsOf = (section: HTMLElement) =>
  within(section)
    .getAllByRole('term')
    .map((term) => `${term.textContent}: ${term.nextElementSibling?.textContent}`);

describe("the project's storage limits", () => {
  it('shows the operator’s limits in sizes, unset as unlimited, and what is used', async () => {
    const { calls, section } = showLimits({
      storage_quota: 5e11,
      max_package_size: null,
      storage_used: 35_200_000_000,
    });
    await within(section).findByText('35.2 GB');
    expect(rowsOf(section)).toEqual([
      'Storage quota: 500 GB',
      'Largest package: Unlimited',
      'Storage used: 35.2 GB',
    ]);
    expect(calls.map((c) => c.args)).toEqual([{ params: { slug: 'demo' } }]);
  });
});
