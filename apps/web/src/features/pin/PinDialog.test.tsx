// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Provider } from 'react-redux';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { api, pinMessages, type ApiRoute } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { storeAnswering, type AskedCall } from '../../app/test-support/api-store';
import { PinDialog } from './PinDialog';

afterEach(cleanup);

const refused = (status: number, body: unknown) =>
  new ApiError('HTTP_ERROR', status, body, `POST ${status}`);

/**
 * The dialog over a store whose PIN calls are answered by `answers` (a thrown error refuses
 * the call); `accessKey` makes it the external page's dialog.
 */
function openDialog(
  answers: Map<ApiRoute, () => unknown>,
  options: { accessKey?: string; mobileHint?: string } = {},
) {
  const { store, calls } = storeAnswering((route) => {
    const answer = answers.get(route);
    if (!answer) throw new Error(`unexpected call ${route.path}`);
    return answer();
  });
  const onVerified = vi.fn();
  const onClose = vi.fn();
  render(
    <Provider store={store}>
      <PinDialog
        open
        slug="pkg-1"
        accessKey={options.accessKey}
        mobileHint={options.mobileHint ?? '0123'}
        onClose={onClose}
        onVerified={onVerified}
      />
    </Provider>,
  );
  return { calls, onVerified, onClose };
}

const digit = (n: number) => screen.getByRole('textbox', { name: `PIN digit ${n}` });
const digits = () => [1, 2, 3, 4, 5, 6].map((n) => (digit(n) as HTMLInputElement).value).join('');
const inError = () =>
  [1, 2, 3, 4, 5, 6].filter((n) => digit(n).getAttribute('aria-invalid') === 'true').length;
const paste = (n: number, text: string) =>
  fireEvent.paste(digit(n), { clipboardData: { getData: () => text } });
const typeCode = (code: string) =>
  [...code].forEach((d, i) => fireEvent.change(digit(i + 1), { target: { value: d } }));
const bodyOf = (calls: AskedCall[], route: ApiRoute) =>
  (calls.find((c) => c.route === route)?.args as { body: unknown } | undefined)?.body;

const verified = () => ({ pin_verified: true, locked: false });
const sent = () => ({ mobile_hint: '0123', expires_in: 600 });

describe('the PIN dialog', () => {
  it('says where the PIN goes and sends it with the link key on the external page', async () => {
    const { calls } = openDialog(new Map([[api.pin.sendExternal, sent]]), { accessKey: 'k-1' });
    expect(screen.getByTestId('pin-instructions').textContent).toContain('ending in 0123');

    fireEvent.click(screen.getByRole('button', { name: 'Send PIN' }));
    await screen.findByText(/We sent a PIN by text message to your mobile ending in 0123/);
    expect(bodyOf(calls, api.pin.sendExternal)).toEqual({ key: 'k-1' });
    expect(screen.getByRole('button', { name: 'Send a new PIN' })).toBeTruthy();
  });

  it('takes a pasted PIN into all six inputs, and verifies it, then closes empty', async () => {
    const { calls, onVerified, onClose } = openDialog(
      new Map([[api.pin.verifyExternal, verified]]),
      { accessKey: 'k-1' },
    );
    paste(1, ' 482 913 ');
    expect(digits()).toBe('482913');
    expect(document.activeElement).toBe(digit(6));

    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(onVerified).toHaveBeenCalledOnce());
    expect(onClose).toHaveBeenCalledOnce();
    expect(bodyOf(calls, api.pin.verifyExternal)).toEqual({ code: '482913', key: 'k-1' });
    expect(digits()).toBe('');
  });

  it('moves on as digits are typed, back on backspace, and ignores anything but digits', () => {
    openDialog(new Map());
    fireEvent.change(digit(1), { target: { value: '4' } });
    expect(document.activeElement).toBe(digit(2));
    fireEvent.change(digit(2), { target: { value: 'x' } });
    expect(digits()).toBe('4');
    fireEvent.change(digit(2), { target: { value: '8' } });
    fireEvent.keyDown(digit(3), { key: 'Backspace' });
    expect(digits()).toBe('4');
    expect(document.activeElement).toBe(digit(2));
  });

  it('moves on when a typed digit is the one the input already holds', () => {
    openDialog(new Map());
    paste(1, '000000');
    digit(1).focus();
    for (const key of '707') fireEvent.keyDown(document.activeElement!, { key });
    expect(digits()).toBe('707000');
    expect(document.activeElement).toBe(digit(4));
  });

  it('marks the inputs in error with fewer than 6 digits, and sends nothing', () => {
    const { calls } = openDialog(new Map());
    typeCode('4829');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(inError()).toBe(6);
    expect(screen.getByText(pinMessages.codeFormat)).toBeTruthy();
    expect(calls).toHaveLength(0);

    // Finishing the code clears the error.
    typeCode('482913');
    expect(inError()).toBe(0);
  });

  it('refuses a wrong PIN with the spec words and keeps the dialog open (signed-in caller)', async () => {
    const { calls, onVerified, onClose } = openDialog(
      new Map([
        [
          api.pin.verify,
          () => {
            throw refused(400, { detail: { error: pinMessages.notValid } });
          },
        ],
      ]),
    );
    typeCode('000000');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const failure = await screen.findByTestId('pin-failure');
    expect(failure.textContent).toBe(pinMessages.notValidDefault + pinMessages.notValid);
    expect(inError()).toBe(6);
    expect(onVerified).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
    // A signed-in recipient's call carries no key.
    expect(bodyOf(calls, api.pin.verify)).toEqual({ code: '000000' });
  });

  it("shows the server's reason when the text message could not be sent", async () => {
    openDialog(
      new Map([
        [
          api.pin.send,
          () => {
            throw refused(502, { detail: { error: pinMessages.sendFailed } });
          },
        ],
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send PIN' }));
    const failure = await screen.findByTestId('pin-failure');
    expect(failure.textContent).toBe(pinMessages.sendFailedDefault + pinMessages.sendFailed);
  });

  it('falls back to the spec words when a send fails without an answer', async () => {
    openDialog(
      new Map([
        [
          api.pin.send,
          () => {
            throw new ApiError('NETWORK_ERROR', 0, undefined, 'offline');
          },
        ],
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send PIN' }));
    const failure = await screen.findByTestId('pin-failure');
    expect(failure.textContent).toBe(pinMessages.sendFailedDefault + pinMessages.sendFailed);
  });

  it('shows a limit the server names (too many requests)', async () => {
    openDialog(
      new Map([
        [
          api.pin.send,
          () => {
            throw refused(429, { detail: { error: pinMessages.tooManySends } });
          },
        ],
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Send PIN' }));
    expect((await screen.findByTestId('pin-failure')).textContent).toContain(
      pinMessages.tooManySends,
    );
  });
});
