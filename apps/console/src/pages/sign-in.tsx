import { useState } from 'preact/hooks';
import { signIn } from '../api.js';
import { InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, useAction } from '../ui.js';

export function SignIn({ reason, onSignedIn }: { reason?: string; onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ email?: string; password?: string }>({});
  const action = useAction();

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = {
      email: !email.trim() ? 'E-mail is required' : !/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? 'E-mail must be an e-mail address' : undefined,
      password: !password ? 'Password is required' : undefined,
    };
    setErrors(found);
    if (found.email || found.password) return;
    await action.run(async () => {
      await signIn(email.trim(), password);
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
          <SubmitButton action={action}>{action.busy ? 'Signing in…' : 'Sign in'}</SubmitButton>
        </form>
      </article>
    </main>
  );
}
