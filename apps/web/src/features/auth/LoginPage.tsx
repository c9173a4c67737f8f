import { useNavigate, useSearchParams } from 'react-router';
import { useAuthenticateMutation } from './auth-api';
import { LoginForm } from './LoginForm';

/**
 * The login route inside the app (after a sign-out, or a session that ran out): the sign-in keeps
 * its answer as the signed-in user, so the shell asks nothing more.
 */
export function LoginPage() {
  const [authenticate] = useAuthenticateMutation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (
    <LoginForm
      search={search}
      signIn={(body) => authenticate({ body }).unwrap()}
      onSignedIn={(_user, to) => navigate(to, { replace: true })}
      navigate={(to) => navigate(to)}
    />
  );
}
