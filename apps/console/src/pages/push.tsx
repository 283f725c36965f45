import { useState } from 'preact/hooks';
import { ApiError, Bot, api, roleAtLeast } from '../api.js';
import { ErrorNotice, Field, NotAllowed, Spinner, Success, useAction, useLoad, when } from '../ui.js';

interface ConfigView {
  notification: { firebaseConfig: { projectId: string; clientEmail: string; savedAt: string } };
}
interface TestAnswer {
  message: string;
  accepted: boolean;
  fcm: { httpStatus: number; body: unknown };
}

export function PushPage({ bot }: { bot: Bot }) {
  if (!roleAtLeast(bot.role, 'admin')) {
    return (
      <section>
        <h1>Push notifications</h1>
        <NotAllowed needed="admin" role={bot.role} />
      </section>
    );
  }
  return <Push bot={bot} />;
}

function Push({ bot }: { bot: Bot }) {
  // 404 means "nothing saved yet", not a failure.
  const config = useLoad(
    () =>
      api<ConfigView>('GET', `/api/data/vault/botConfig?bot=${bot.id}`).catch((err) => {
        if (err instanceof ApiError && err.status === 404) return null;
        throw err;
      }),
    [bot.id],
  );
  const [saved, setSaved] = useState<string | null>(null);
  const current = config.data?.notification.firebaseConfig;
  return (
    <section>
      <h1>Push notifications</h1>
      <h2>Firebase service account</h2>
      <ErrorNotice error={config.error} />
      {config.loading && config.data === undefined ? (
        <Spinner label="Loading the push configuration…" />
      ) : current ? (
        <dl class="facts" data-testid="push-config">
          <dt>Project id</dt>
          <dd>{current.projectId}</dd>
          <dt>Client e-mail</dt>
          <dd>{current.clientEmail}</dd>
          <dt>Saved</dt>
          <dd>{when(current.savedAt)}</dd>
        </dl>
      ) : (
        <p>No service account saved: this bot cannot send push notifications yet.</p>
      )}
      {saved && <Success>{saved}</Success>}
      <Upload bot={bot} replacing={!!current} onSaved={(m) => { setSaved(m); void config.reload(true); }} />
      {current && <TestSend bot={bot} />}
    </section>
  );
}

function Upload({ bot, replacing, onSaved }: { bot: Bot; replacing: boolean; onSaved: (message: string) => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setFileError('Service-account file is required: choose the JSON file Firebase gave you');
    let doc: unknown;
    try {
      doc = JSON.parse(await file.text());
    } catch {
      return setFileError(`Service-account file: ${file.name} is not a JSON document`);
    }
    setFileError(null);
    const answer = await action.run(() =>
      api<{ message: string }>('POST', `/api/data/vault/saveBotConfig?bot=${bot.id}`, { notification: { firebaseConfig: { serviceAccount: doc } } }),
    );
    if (answer) {
      (e.target as HTMLFormElement).reset();
      setFile(null);
      onSaved(answer.message);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label={replacing ? 'Replace the service account' : 'Upload a service account'}>
      <Field id="service-account" label={replacing ? 'Replace with another service-account file' : 'Service-account file (JSON)'} error={fileError}
        hint="Firebase console → Project settings → Service accounts → Generate new private key. The key is stored encrypted and never shown.">
        {(aria) => <input {...aria} type="file" accept="application/json,.json" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}
      </Field>
      <button type="submit" aria-busy={action.busy} disabled={action.busy}>{replacing ? 'Replace' : 'Upload'}</button>
      <ErrorNotice error={action.error} />
    </form>
  );
}

function TestSend({ bot }: { bot: Bot }) {
  const [token, setToken] = useState('');
  const [title, setTitle] = useState('Test notification');
  const [body, setBody] = useState('Sent from the console');
  const [tokenError, setTokenError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<TestAnswer | null>(null);
  const action = useAction();
  const submit = async (e: Event) => {
    e.preventDefault();
    const problem = !token.trim() ? 'Device token is required' : null;
    setTokenError(problem);
    if (problem) return;
    setAnswer(null);
    const a = await action.run(() => api<TestAnswer>('POST', `/v1/bots/${bot.id}/push/test`, { token: token.trim(), title, body }));
    if (a) setAnswer(a);
  };
  return (
    <>
      <h2>Send a test notification</h2>
      <form onSubmit={submit} noValidate aria-label="Send a test notification">
        <Field id="device-token" label="Device token" error={tokenError} hint="The FCM registration token of one device.">
          {(aria) => <input {...aria} value={token} onInput={(e) => setToken((e.target as HTMLInputElement).value)} />}
        </Field>
        <div class="grid">
          <Field id="test-title" label="Title">{(aria) => <input {...aria} value={title} onInput={(e) => setTitle((e.target as HTMLInputElement).value)} />}</Field>
          <Field id="test-body" label="Text">{(aria) => <input {...aria} value={body} onInput={(e) => setBody((e.target as HTMLInputElement).value)} />}</Field>
        </div>
        <button type="submit" aria-busy={action.busy} disabled={action.busy}>Send test</button>
      </form>
      <ErrorNotice error={action.error} />
      {answer && (
        <section aria-labelledby="fcm-answer" data-testid="fcm-answer">
          <h3 id="fcm-answer">FCM answered HTTP {answer.fcm.httpStatus} ({answer.accepted ? 'accepted' : 'not accepted'})</h3>
          <pre tabIndex={0}>{JSON.stringify(answer.fcm.body, null, 2)}</pre>
        </section>
      )}
    </>
  );
}
