// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { messages, type User } from '@filerunner/protocol';
import { ApiError } from '../../app/api-client';
import { LoginForm, type LoginFormProps } from './LoginForm';
import { loginBanners } from './login-messages';

afterEach(cleanup);

const user = { id: 1, email: 'a@example.com' } as User;

function openForm(query: string, signIn: LoginFormProps['signIn']) {
  const onSignedIn = vi.fn();
  const navigate = vi.fn();
  render(
    <LoginForm
      search={new URLSearchParams(query)}
      signIn={signIn}
      onSignedIn={onSignedIn}
      navigate={navigate}
    />,
  );
  const logIn = () => {
    fireEvent.change(screen.getByLabelText(/Email/), { target: { value: ' a@example.com ' } });
    fireEvent.change(screen.getByLabelText(/^Password/), { target: { value: 'pw' } });
    fireEvent.click(logInButton());
  };
  return { onSignedIn, navigate, logIn };
}

const logInButton = () => screen.getByRole<HTMLButtonElement>('button', { name: 'Log in' });

const refusing = (status: number, detail?: string) => () =>
  Promise.reject(new ApiError('HTTP_ERROR', status, detail ? { detail } : {}, `failed ${status}`));

describe('the login form', () => {
  it('signs in with the trimmed email, then opens the page named by next', async () => {
    const signIn = vi.fn(() => Promise.resolve(user));
    const { onSignedIn, logIn } = openForm('next=%2Fsent%2Fabc', signIn);
    expect(logInButton().disabled).toBe(true);
    logIn();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user, '/sent/abc'));
    expect(signIn).toHaveBeenCalledWith({ email: 'a@example.com', password: 'pw' });
  });

  it('never follows a next that leaves the site', async () => {
    const { onSignedIn, logIn } = openForm('next=%2F%2Fevil.example', () => Promise.resolve(user));
    logIn();
    await waitFor(() => expect(onSignedIn).toHaveBeenCalledWith(user, '/'));
  });

  it('fails with the one message that does not say which field was wrong', async () => {
    const { onSignedIn, logIn } = openForm('', refusing(400, 'Wrong password.'));
    logIn();
    expect(await screen.findByText(messages.login.failed)).toBeTruthy();
    expect(screen.queryByText('Wrong password.')).toBeNull();
    expect(logInButton().disabled).toBe(false);
    expect(onSignedIn).not.toHaveBeenCalled();
  });

  it("shows the server's words when there were too many attempts", async () => {
    const detail = 'Too many attempts. Try again in 15 minutes.';
    const { logIn } = openForm('', refusing(429, detail));
    logIn();
    expect(await screen.findByText(detail)).toBeTruthy();
  });

  it('greets a new account and shows the banner its link names', () => {
    openForm('welcome&message=ACCOUNT_ACTIVATED', () => Promise.resolve(user));
    expect(screen.getByText('Welcome to FileRunner')).toBeTruthy();
    expect(screen.getByText(loginBanners.ACCOUNT_ACTIVATED!)).toBeTruthy();
  });

  it('opens the forgotten-password page in place, or in a new tab when asked', () => {
    const { navigate } = openForm('', () => Promise.resolve(user));
    const link = screen.getByRole('link', { name: 'Forgot your password?' });
    expect(link.getAttribute('href')).toBe('/forgotpassword');
    fireEvent.click(link, { ctrlKey: true });
    expect(navigate).not.toHaveBeenCalled();
    fireEvent.click(link);
    expect(navigate).toHaveBeenCalledWith('/forgotpassword');
  });
});
