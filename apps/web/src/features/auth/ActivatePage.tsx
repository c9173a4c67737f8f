import { useState, type FormEvent } from 'react';
import { useNavigate, useParams } from 'react-router';
import { messages, withLeadingPlus, type ActivationTokenCheck } from '@filerunner/protocol';
import { asApiError } from '../../app/api-client';
import { AuthLayout } from '../../components/AuthLayout';
import { OutlinedField } from '../../components/OutlinedField';
import { PhoneField } from '../../components/PhoneField';
import { useActivateMutation } from './auth-api';
import { NewPasswordForm } from './NewPasswordForm';
import { checkPasswordPair, firstErrors } from './password-form';
import { TokenCheckStatus } from './TokenCheckStatus';
import { useActivationTokenCheck } from './use-token-check';

type Field = 'name' | 'mobile' | 'password' | 'password_confirm' | 'token' | 'all';
type Errors = Partial<Record<Field, string>>;

export function ActivatePage() {
  const { uid, token } = useParams();
  const check = useActivationTokenCheck(uid, token);

  return (
    <AuthLayout title="Activate your account">
      {check.state === 'VALID' && check.data && uid && token ? (
        <ActivationForm uid={uid} token={token} invitation={check.data} />
      ) : (
        <TokenCheckStatus state={check.state} error={check.error} />
      )}
    </AuthLayout>
  );
}

function ActivationForm(props: { uid: string; token: string; invitation: ActivationTokenCheck }) {
  const [activate] = useActivateMutation();
  const navigate = useNavigate();
  const { invitation } = props;
  const [name, setName] = useState(
    [invitation.first_name, invitation.last_name].filter(Boolean).join(' '),
  );
  const [mobile, setMobile] = useState(invitation.mobile ?? '');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);

  const validate = (): Errors => {
    const pair = checkPasswordPair(password, confirm, {
      password: messages.activation.passwordRequired,
      confirm: messages.activation.confirmationRequired,
    });
    const found: Errors = { password: pair.password, password_confirm: pair.confirm };
    if (!name.trim()) found.name = messages.activation.nameRequired;
    return Object.fromEntries(Object.entries(found).filter(([, message]) => message));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const local = validate();
    setErrors(local);
    if (Object.keys(local).length > 0) return;
    setSaving(true);
    try {
      await activate({
        body: {
          uid: props.uid,
          token: props.token,
          name: name.trim(),
          mobile: withLeadingPlus(mobile),
          password,
          password_confirm: confirm,
        },
      }).unwrap();
      navigate('/login?message=ACCOUNT_ACTIVATED', { replace: true });
    } catch (error) {
      const fields = firstErrors(asApiError(error)?.fieldErrors ?? {});
      setErrors(Object.keys(fields).length > 0 ? fields : { all: messages.activation.failed });
      setSaving(false);
    }
  };

  return (
    <NewPasswordForm
      onSubmit={submit}
      errors={errors}
      saving={saving}
      passwordLabel="Password"
      required
      password={password}
      confirm={confirm}
      onPasswordChange={setPassword}
      onConfirmChange={setConfirm}
    >
      <OutlinedField
        label="Email"
        name="email"
        value={invitation.email}
        readOnly
        helperText="Your email address cannot be changed here."
      />
      <OutlinedField
        label="Name"
        name="name"
        autoComplete="name"
        required
        value={name}
        onChange={(e) => setName(e.target.value)}
        error={Boolean(errors.name)}
        helperText={errors.name}
      />
      <PhoneField
        label="Mobile"
        name="mobile"
        value={mobile}
        onChange={setMobile}
        error={errors.mobile}
      />
    </NewPasswordForm>
  );
}
