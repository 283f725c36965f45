import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, Spinner, Success, useAction, useLoad, when } from '../ui.js';
import { TotpQr } from './totp-qr.js';

/** The signed-in person's own account: password and two-factor sign-in. */
export function AccountPage() {
  return (
    <section>
      <ChangePassword />
      <TwoFactor />
    </section>
  );
}

function ChangePassword() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [errors, setErrors] = useState<{ current?: string; next?: string }>({});
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const found = { current: !current ? 'Current password is required' : undefined, next: next.length < 12 ? 'New password must be at least 12 characters long' : undefined };
    setErrors(found);
    setDone(null);
    if (found.current || found.next) return;
    const ok = await action.run(() => api<{ message: string }>('POST', '/v1/me/password', { current_password: current, new_password: next }));
    if (ok) {
      setCurrent('');
      setNext('');
      setDone(ok.message);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label="Change password">
      <h2>Password</h2>
      <InputField id="current-password" label="Current password" type="password" autocomplete="current-password" error={errors.current} value={current} onValue={setCurrent} />
      <InputField
        id="next-password"
        label="New password"
        hint="At least 12 characters; your other sessions are signed out."
        type="password"
        autocomplete="new-password"
        error={errors.next}
        value={next}
        onValue={setNext}
      />
      <SubmitButton action={action}>Change password</SubmitButton>
      <ErrorNotice error={action.error} />
      {done && <Success>{done}</Success>}
    </form>
  );
}

interface Status {
  enabled: boolean;
  enabledAt: string | null;
  recoveryCodesLeft: number;
}

function TwoFactor() {
  const status = useLoad(() => api<Status>('GET', '/v1/me/two-factor'), []);
  const [enrolment, setEnrolment] = useState<{ secret: string; otpauth_uri: string } | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | undefined>();
  const action = useAction();

  const start = async () => {
    const e = await action.run(() => api<{ secret: string; otpauth_uri: string }>('POST', '/v1/me/two-factor'));
    if (e) setEnrolment(e);
  };
  const confirm = async (e: Event) => {
    e.preventDefault();
    setError(/^\d{6}$/.test(code.trim()) ? undefined : 'Code must be the 6 digits your app shows');
    if (!/^\d{6}$/.test(code.trim())) return;
    const r = await action.run(() => api<{ recovery_codes: string[] }>('POST', '/v1/me/two-factor/confirm', { code: code.trim() }));
    if (r) {
      setCodes(r.recovery_codes);
      setEnrolment(null);
      setCode('');
      void status.reload(true);
    }
  };
  const turnOff = async (e: Event) => {
    e.preventDefault();
    setError(!password || !code.trim() ? 'Password and a code are both required' : undefined);
    if (!password || !code.trim()) return;
    if (await action.run(() => api('DELETE', '/v1/me/two-factor', { password, code: code.trim() }))) {
      setPassword('');
      setCode('');
      setCodes(null);
      void status.reload(true);
    }
  };

  return (
    <section aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Two-factor sign-in</h2>
      <ErrorNotice error={status.error ?? action.error} />
      {status.loading && !status.data && <Spinner label="Loading…" />}
      {codes && (
        <div class="notice warning" role="status" data-testid="recovery-codes">
          <strong>Two-factor sign-in is on. Store these recovery codes now; they are not shown again.</strong> Each signs in once when your phone is not at hand.
          <ul class="codes">
            {codes.map((c) => (
              <li>
                <code>{c}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {status.data && !status.data.enabled && !enrolment && (
        <>
          <p>Off. With it on, signing in asks for the code of an authenticator app (Google Authenticator, 1Password, Authy…) after the password.</p>
          <button type="button" onClick={start} disabled={action.busy}>
            Turn on two-factor sign-in
          </button>
        </>
      )}
      {enrolment && (
        <form onSubmit={confirm} noValidate aria-label="Confirm two-factor sign-in">
          <p>
            Add this account to your authenticator app: scan the QR code with it; on the phone itself, open <a href={enrolment.otpauth_uri}>the setup link</a>; or type the key below. Then enter the
            code the app shows.
          </p>
          <TotpQr uri={enrolment.otpauth_uri} />
          <p>
            Key:{' '}
            <code data-testid="totp-secret" class="break">
              {enrolment.secret.replace(/(.{4})/g, '$1 ').trim()}
            </code>
          </p>
          <InputField id="totp-confirm" label="Code from the app" error={error} inputMode="numeric" autocomplete="one-time-code" value={code} onValue={setCode} />
          <SubmitButton action={action}>Confirm and turn on</SubmitButton>
        </form>
      )}
      {status.data?.enabled && (
        <>
          <p data-testid="two-factor-on">
            On since {when(status.data.enabledAt)}; {status.data.recoveryCodesLeft} recovery codes left.
          </p>
          <details>
            <summary role="button" class="secondary outline">
              Turn off two-factor sign-in
            </summary>
            <form onSubmit={turnOff} noValidate aria-label="Turn off two-factor sign-in">
              <InputField id="off-password" label="Password" type="password" autocomplete="current-password" value={password} onValue={setPassword} />
              <InputField id="off-code" label="Code from the app or a recovery code" error={error} autocomplete="one-time-code" value={code} onValue={setCode} />
              <SubmitButton action={action}>Turn off</SubmitButton>
            </form>
          </details>
        </>
      )}
    </section>
  );
}
