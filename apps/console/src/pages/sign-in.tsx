import { useState } from 'preact/hooks';
import { TotpRequiredError, signIn } from '../api.js';
import { InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, useAction } from '../ui.js';

export function SignIn({ reason, onSignedIn }: { reason?: string; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  // Set once the password was accepted and the account asks for its second factor.
  const [askCode, setAskCode] = useState(false);
  const [errors, setErrors] = useState<{ email?: string; password?: string; code?: string }>({});
  const action = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = {
      email: !email.trim() ? 'E-mail is required' : !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? 'E-mail must be an e-mail address' : undefined,
      password: !password ? 'Password is required' : undefined,
      code: askCode && !code.trim() ? 'Code is required: the 6 digits your authenticator app shows, or a recovery code' : undefined,
    };
    setErrors(found);
    if (found.email || found.password || found.code) return;
    await action.run(async () => {
      try {
        await signIn(email.trim(), password, askCode ? code.trim() : undefined);
      } catch (err) {
        if (err instanceof TotpRequiredError && !askCode) {
          setAskCode(true);
          // The field appears below the password: the person goes on there.
          setTimeout(() => document.getElementById('totp-code')?.focus(), 0);
          return;
        }
        throw err;
      }
      await onSignedIn();
    });
  };

  return (
    <main class="container narrow" id="main">
      <article>
        <header>
          <h1>Sign in</h1>
          <p>Bot platform console, for bot administrators.</p>
        </header>
        {reason && (
          <p role="status" class="notice warning">
            {reason}
          </p>
        )}
        <ErrorNotice error={action.error} signingIn />
        <form onSubmit={submit} noValidate>
          <InputField id="email" label="E-mail" error={errors.email} type="email" name="email" autocomplete="username" value={email} onValue={setEmail} />
          <InputField id="password" label="Password" error={errors.password} type="password" name="password" autocomplete="current-password" value={password} onValue={setPassword} />
          {askCode && (
            <InputField
              id="totp-code"
              label="Two-factor code"
              hint="The 6-digit code of your authenticator app, or one of your recovery codes."
              error={errors.code}
              name="totp"
              autocomplete="one-time-code"
              inputMode="text"
              value={code}
              onValue={setCode}
            />
          )}
          <SubmitButton action={action}>{action.busy ? 'Signing in…' : 'Sign in'}</SubmitButton>
        </form>
      </article>
    </main>
  );
}
