import { useState } from 'preact/hooks';
import { Bot, api, roleAtLeast } from '../api.js';
import { ShownOnce } from '../ui-secret.js';
import { InputField, SubmitButton } from '../form-field.js';
import { ErrorNotice, NotAllowed, Spinner, Success, useAction, useLoad, when } from '../ui.js';

interface WebhookView {
  url: string | null;
  secretSet: boolean;
  /** Set when the platform stopped calling it after it failed every call for days. */
  disabledAt?: string | null;
}

export function WebhookPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'admin')) return <NotAllowed needed="admin" role={bot.role} />;
  return <Webhook bot={bot} />;
}

function Webhook({ bot }: { bot: Bot }) {
  const current = useLoad(() => api<WebhookView>('GET', `/v1/bots/${bot.id}/webhook`), [bot.id]);
  const [url, setUrl] = useState<string | null>(null);
  const [urlError, setUrlError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const action = useAction();
  const value = url ?? current.data?.url ?? '';
  const save = async (rotateSecret: boolean) => {
    const problem = !value.trim() ? 'URL is required' : !/^https?:\/\/\S+$/.test(value.trim()) ? 'URL must be an http(s) URL' : null;
    setUrlError(problem);
    if (problem) return;
    const a = await action.run(() => api<{ message: string; secret?: string; previousSecretValidUntil?: string }>('PUT', `/v1/bots/${bot.id}/webhook`, { url: value.trim(), rotateSecret }));
    if (a) {
      setSecret(a.secret ?? null);
      setDone(a.previousSecretValidUntil ? `${a.message}. The previous secret also signs calls until ${when(a.previousSecretValidUntil)}.` : a.message);
      void current.reload(true);
    }
  };
  const remove = async () => {
    if (!confirm('Remove the webhook? Session starts and app events are no longer delivered.')) return;
    const a = await action.run(() => api<{ message: string }>('DELETE', `/v1/bots/${bot.id}/webhook`));
    if (a) {
      setUrl('');
      setSecret(null);
      setDone(a.message);
      void current.reload(true);
    }
  };
  return (
    <section>
      <p>
        Where the platform POSTs session starts and app events of <strong>{bot.name}</strong>, signed with a secret (see the SDK docs).
      </p>
      <ErrorNotice error={current.error} />
      {done && <Success>{done}</Success>}
      {current.data?.disabledAt && (
        <div class="notice warning" role="alert" data-testid="webhook-disabled">
          <strong>Disabled. </strong>
          Every call failed for days, so none has been made since {when(current.data.disabledAt)}. Save the URL again to enable it.
        </div>
      )}
      {secret && <ShownOnce title="Signing secret" label="Webhook signing secret" testId="webhook-secret" value={secret} onDismiss={() => setSecret(null)} />}
      {current.loading && !current.data ? (
        <Spinner label="Loading the webhook…" />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void save(false);
          }}
          noValidate
          aria-label="Webhook"
        >
          <InputField
            id="webhook-url"
            label="Webhook URL"
            error={urlError}
            hint={current.data?.secretSet ? 'A signing secret is set (never shown again).' : 'No signing secret yet: one is created when you save.'}
            type="url"
            placeholder="https://bot.example.com/platform-events"
            value={value}
            onValue={setUrl}
          />
          <div class="button-row">
            <SubmitButton action={action}>Save</SubmitButton>
            {current.data?.secretSet && (
              <button type="button" class="secondary" disabled={action.busy} onClick={() => void save(true)}>
                Save and rotate secret
              </button>
            )}
            {current.data?.url && (
              <button type="button" class="secondary outline" disabled={action.busy} onClick={remove}>
                Remove
              </button>
            )}
          </div>
          <ErrorNotice error={action.error} />
        </form>
      )}
    </section>
  );
}
