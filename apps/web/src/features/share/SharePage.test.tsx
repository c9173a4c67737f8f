// @vitest-environment jsdom
import { afterEach, describe, expect, it } from 'vitest';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import {
  api,
  defaultFilesystemConstraints,
  sendMessages,
  type ApiRoute,
  type Contract,
  type RecipientGroup,
  type SenderPackage,
  type User,
} from '@filerunner/protocol';
import { storeAnswering } from '../../app/test-support/api-store';
import { partnersGroup, testContract } from '../../app/test-support/contracts';
import { initialAuthState } from '../auth/auth-slice';
import { resetHiddenSettings, updateHiddenSettings } from '../hidden-settings/hidden-settings';
import { pinModeMeanings } from '../pin/pin-modes';
import { projectsApi } from '../projects/projects-api';
import type { UploadController, UploadToStart } from '../transfers/upload-controller';
import { SharePage } from './SharePage';

afterEach(cleanup);

const contract = (pin: Contract['settings']['pin_verification']): Contract =>
  testContract({ settings: { pin_verification: pin } });

const groups: RecipientGroup[] = [
  partnersGroup({ id: 3, name: 'Rita Recipient', email: 'recipient@example.com' }),
];

const user = { id: 2, email: 'sender@example.com', show_select_storage: false } as User;

/** The Share screen over a store whose calls are answered here; sends are recorded. */
async function openShare(
  pin: Contract['settings']['pin_verification'] = 'none',
  options: { showSelectStorage?: boolean } = {},
) {
  const started: UploadToStart[] = [];
  const uploads = {
    start: (upload: UploadToStart) => {
      started.push(upload);
      return upload.pkg.slug;
    },
  } as unknown as UploadController;
  const answers = new Map<ApiRoute, unknown>([
    [
      api.contracts.list,
      [{ ...contract(pin), storage_app_groups: [{ id: 7, name: 'London vault' }] }],
    ],
    [api.recipients.list, groups],
    [api.filesystem.constraints, defaultFilesystemConstraints],
    [api.packages.create, { slug: 'pkg-1', name: 'Dailies' } as SenderPackage],
  ]);
  const { store, calls } = storeAnswering((route) => answers.get(route), {
    preloadedState: {
      auth: {
        ...initialAuthState,
        user: { ...user, show_select_storage: options.showSelectStorage ?? false },
      },
      projects: { selectedSlug: 'demo' },
    },
    uploads,
  });
  await store.dispatch(projectsApi.endpoints.contracts.initiate());
  render(
    <Provider store={store}>
      <MemoryRouter>
        <SharePage />
      </MemoryRouter>
    </Provider>,
  );
  await waitFor(() => expect(calls.some((c) => c.route === api.recipients.list)).toBe(true));
  return { store, calls, started };
}

const status = () => screen.queryByTestId('send-problem')?.textContent ?? null;
const sendButton = () => screen.getByRole('button', { name: 'Send Package' });

async function chooseRita() {
  const picker = screen.getByRole('combobox', { name: 'Recipients' });
  fireEvent.change(picker, { target: { value: 'Rita' } });
  fireEvent.click(await screen.findByRole('option', { name: /Rita Recipient/ }));
}

function addFiles(...names: string[]) {
  const files = names.map((name) => new File(['frame'], name, { lastModified: 1 }));
  fireEvent.change(screen.getByLabelText('Files to send'), { target: { files } });
}

const nameField = () => screen.getByRole('textbox', { name: 'Package name' });

describe('the Share screen', () => {
  it('links to the pre-flight check', async () => {
    await openShare();
    const link = screen.getByRole('link', { name: 'Run a pre-flight check' });
    expect(link.getAttribute('href')).toBe('/debug/preflight');
  });

  it('tells what is missing in order, and enables Send Package once nothing is', async () => {
    await openShare();
    expect(status()).toBe(sendMessages.selectRecipients);
    expect(sendButton()).toHaveProperty('disabled', true);

    await chooseRita();
    await waitFor(() => expect(status()).toBe(sendMessages.selectFiles));
    expect(screen.getByRole('listitem', { name: '' }).textContent).toContain('Rita Recipient');
    expect(sendButton()).toHaveProperty('disabled', true);

    addFiles('a.mov', 'b.mov');
    await waitFor(() => expect(status()).toBe(sendMessages.nameRequired));
    expect(screen.getByTestId('selected-file-count').textContent).toBe('2 files, 10 bytes');
    expect(sendButton()).toHaveProperty('disabled', true);

    fireEvent.change(nameField(), { target: { value: 'Dailies' } });
    await waitFor(() => expect(status()).toBeNull());
    expect(sendButton()).toHaveProperty('disabled', false);
  });

  it('keeps Send Package disabled while a recipient who needs a PIN has no mobile', async () => {
    await openShare('all');
    const toggle = screen.getByRole('switch', { name: 'PIN verification' });
    expect(toggle).toHaveProperty('checked', true);
    expect(toggle).toHaveProperty('disabled', true);
    await chooseRita();
    addFiles('a.mov');
    fireEvent.change(nameField(), { target: { value: 'Dailies' } });
    await waitFor(() => expect(status()).toBe(sendMessages.pinMobiles));
    const row = screen.getByTestId('recipient-row');
    expect(row.dataset.missingMobile).toBe('true');
    expect(sendButton()).toHaveProperty('disabled', true);

    fireEvent.change(within(row).getByRole('textbox', { name: /Mobile for/ }), {
      target: { value: '+447911123456' },
    });
    await waitFor(() => expect(status()).toBeNull());
    expect(row.dataset.missingMobile).toBeUndefined();
    expect(sendButton()).toHaveProperty('disabled', false);
  });

  it('offers the PIN toggle only when the contract leaves it to the sender', async () => {
    await openShare('none');
    const toggle = screen.getByRole('switch', { name: 'PIN verification' });
    expect(toggle).toHaveProperty('checked', false);
    expect(toggle).toHaveProperty('disabled', true);
    cleanup();
    await openShare('adhoc');
    expect(screen.getByRole('switch', { name: 'PIN verification' })).toHaveProperty(
      'disabled',
      false,
    );
  });

  it("names the PIN switch and describes it by what the project's PIN mode means", async () => {
    for (const mode of ['none', 'all', 'adhoc'] as const) {
      await openShare(mode);
      screen.getByRole('switch', {
        name: 'PIN verification',
        description: pinModeMeanings[mode],
      });
      cleanup();
    }
  });

  it('sends: creates the package from the plan, hands it to the uploads, and starts afresh', async () => {
    const { calls, started } = await openShare();
    await chooseRita();
    addFiles('a.mov', '.DS_Store', 'b.mov');
    fireEvent.change(nameField(), { target: { value: ' Dailies ' } });
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));
    fireEvent.click(sendButton());

    await waitFor(() => expect(started).toHaveLength(1));
    const create = calls.find((c) => c.route === api.packages.create)!;
    expect(create.args).toMatchObject({
      body: {
        contract: 'demo',
        name: 'Dailies',
        recipients: [{ id: 3, mobile: null }],
        expected_files: 2,
        expected_size: 10,
        intended_files: [
          { filename: 'a.mov', size: 5 },
          { filename: 'b.mov', size: 5 },
        ],
      },
    });
    expect(started[0]!.workers).toBe(4);
    expect(started[0]!.plan.totalFiles).toBe(2);
    await screen.findByText(/Your package "Dailies" is in the upload queue/);
    expect(nameField()).toHaveProperty('value', '');
    expect(status()).toBe(sendMessages.selectRecipients);
    expect(screen.queryByTestId('selected-file-count')).toBeNull();
  });

  it('sends with the hidden settings over the project’s: slabs and the workers set there', async () => {
    updateHiddenSettings({ alwaysUseSlabFiles: true, uploadWorkers: 9 });
    try {
      const { started } = await openShare();
      await chooseRita();
      addFiles('a.dpx', 'b.dpx');
      fireEvent.change(nameField(), { target: { value: 'Frames' } });
      await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));
      fireEvent.click(sendButton());

      await waitFor(() => expect(started).toHaveLength(1));
      expect(started[0]!.workers).toBe(9);
      expect(started[0]!.plan.slabs).toHaveLength(1);
      expect(started[0]!.plan.batches).toHaveLength(0);
    } finally {
      resetHiddenSettings();
    }
  });

  it('opens the problem-files dialog for a name recipients’ systems may refuse', async () => {
    await openShare();
    addFiles('ok.mov', 'what?.mov');
    const dialog = await screen.findByRole('dialog');
    within(dialog).getByRole('cell', { name: /Invalid path segment "what\?\.mov"/ });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove problem files' }));
    await waitFor(() =>
      expect(screen.getByTestId('selected-file-count').textContent).toBe('1 file, 5 bytes'),
    );
  });

  it('offers the storage location only to users who turned storage selection on', async () => {
    await openShare();
    expect(screen.queryByRole('combobox', { name: 'Storage location' })).toBeNull();
    cleanup();

    const { calls } = await openShare('none', { showSelectStorage: true });
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Storage location' }));
    fireEvent.click(await screen.findByRole('option', { name: 'London vault' }));
    await chooseRita();
    addFiles('a.mov');
    fireEvent.change(nameField(), { target: { value: 'Vaulted' } });
    await waitFor(() => expect(sendButton()).toHaveProperty('disabled', false));
    fireEvent.click(sendButton());
    await waitFor(() =>
      expect(calls.find((c) => c.route === api.packages.create)?.args).toMatchObject({
        body: { storage_app_group: 7 },
      }),
    );
  });
});
