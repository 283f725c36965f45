import { useEffect, useState } from 'preact/hooks';
import { ApiError, Role, acceptInvitation, lookupInvitation } from '../api.js';
import { InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, Spinner, asApiError, useAction, when } from '../ui.js';

/** The page an invitation link opens (#/invitation/<token>): who is invited to what, and a password to create the account with. */
export function InvitationPage({ token, onSignedIn }: { token: string; onSignedIn: () => Promise<void> }) {
  const [invite, setInvite] = useState<{ email: string; bot: string; role: Role; expiresAt: string } | null>(null);
  const [loadError, setLoadError] = useState<ApiError | null>(null);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [errors, setErrors] = useState<{ password?: string; repeat?: string }>({});
  const action = useAction();
  useEffect(() => {
    lookupInvitation(token).then(setInvite, (err) => setLoadError(asApiError(err)));
  }, [token]);

  const submit = async (e: Event) => {
    e.preventDefault();
    const found = {
      password: password.length < 12 ? 'Password must be at least 12 characters long' : undefined,
      repeat: repeat !== password ? 'The two passwords differ' : undefined,
    };
    setErrors(found);
    if (found.password || found.repeat) return;
    await action.run(async () => {
      await acceptInvitation(token, password);
      // The link is spent: the address bar should not keep it.
      history.replaceState(null, '', `${location.pathname}#/`);
      await onSignedIn();
    });
  };

  return (
    <main class="container narrow" id="main">
      <article>
        <header>
          <h1>Accept your invitation</h1>
        </header>
        <ErrorNotice error={loadError} />
        {loadError && (
          <p>
            <a href="#/">Go to sign-in</a>
          </p>
        )}
        {!invite && !loadError && <Spinner label="Reading the invitation…" />}
        {invite && (
          <>
            <p data-testid="invitation">
              You are invited to <strong>{invite.bot}</strong> as <strong>{invite.role}</strong>, with the e-mail address <strong>{invite.email}</strong>. The link works until {when(invite.expiresAt)}
              .
            </p>
            <ErrorNotice error={action.error} />
            <form onSubmit={submit} noValidate aria-label="Create your account">
              <input type="email" name="username" autocomplete="username" value={invite.email} hidden readOnly />
              <InputField
                id="new-password"
                label="Choose a password"
                hint="At least 12 characters."
                error={errors.password}
                type="password"
                autocomplete="new-password"
                value={password}
                onValue={setPassword}
              />
              <InputField id="repeat-password" label="Repeat the password" error={errors.repeat} type="password" autocomplete="new-password" value={repeat} onValue={setRepeat} />
              <SubmitButton action={action}>{action.busy ? 'Creating your account…' : 'Create account and sign in'}</SubmitButton>
            </form>
          </>
        )}
      </article>
    </main>
  );
}
