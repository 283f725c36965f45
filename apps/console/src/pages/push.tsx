import { useState } from 'preact/hooks';
import { ApiError, Bot, api, roleAtLeast } from '../api.js';
import { ConfirmButton, DataTable } from '../data-table.js';
import { InputField, SubmitButton } from '../form-field.js';
import { EmptyState, ErrorNotice, NotAllowed, PagerNav, Spinner, Success, useAction, useLoad, when } from '../ui.js';
import { Bell, Smartphone } from '../icons.js';

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
        <EmptyState icon={Bell} title="No service account saved" testId="empty-push-config">
          This bot cannot send push notifications yet. Upload your Firebase project's service-account JSON below (Firebase console → Project settings → Service accounts).
        </EmptyState>
      )}
      {saved && <Success>{saved}</Success>}
      <Upload
        bot={bot}
        replacing={!!current}
        onSaved={(m) => {
          setSaved(m);
          void config.reload(true);
        }}
      />
      {current && (
        <RemoveConfig
          bot={bot}
          onRemoved={(m) => {
            setSaved(m);
            void config.reload(true);
          }}
        />
      )}
      {current && <TestSend bot={bot} />}
      <Devices bot={bot} />
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
    const answer = await action.run(() => api<{ message: string }>('POST', `/api/data/vault/saveBotConfig?bot=${bot.id}`, { notification: { firebaseConfig: { serviceAccount: doc } } }));
    if (answer) {
      (e.target as HTMLFormElement).reset();
      setFile(null);
      onSaved(answer.message);
    }
  };
  return (
    <form onSubmit={submit} noValidate aria-label={replacing ? 'Replace the service account' : 'Upload a service account'}>
      <InputField
        id="service-account"
        label={replacing ? 'Replace with another service-account file' : 'Service-account file (JSON)'}
        error={fileError}
        hint="Firebase console → Project settings → Service accounts → Generate new private key. The key is stored encrypted and never shown."
        type="file"
        accept="application/json,.json"
        onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)}
      />
      <SubmitButton action={action}>{replacing ? 'Replace' : 'Upload'}</SubmitButton>
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
        <InputField id="device-token" label="Device token" error={tokenError} hint="The FCM registration token of one device." value={token} onValue={setToken} />
        <div class="grid">
          <InputField id="test-title" label="Title" value={title} onValue={setTitle} />
          <InputField id="test-body" label="Text" value={body} onValue={setBody} />
        </div>
        <SubmitButton action={action}>Send test</SubmitButton>
      </form>
      <ErrorNotice error={action.error} />
      {answer && (
        <section aria-labelledby="fcm-answer" data-testid="fcm-answer">
          <h3 id="fcm-answer">
            FCM answered HTTP {answer.fcm.httpStatus} ({answer.accepted ? 'accepted' : 'not accepted'})
          </h3>
          <pre tabIndex={0}>{JSON.stringify(answer.fcm.body, null, 2)}</pre>
        </section>
      )}
    </>
  );
}

function RemoveConfig({ bot, onRemoved }: { bot: Bot; onRemoved: (message: string) => void }) {
  const action = useAction();
  const remove = async () => {
    if (!confirm('Remove the service account? This bot sends no push notifications until another is uploaded.')) return;
    const a = await action.run(() => api<{ message: string }>('DELETE', `/v1/bots/${bot.id}/push/config`));
    if (a) onRemoved(a.message);
  };
  return (
    <>
      <button type="button" class="secondary outline" aria-busy={action.busy} disabled={action.busy} onClick={remove}>
        Remove the service account
      </button>
      <ErrorNotice error={action.error} />
    </>
  );
}

interface Device {
  id: string;
  userId: string;
  platform: string;
  tokenPreview: string;
  registeredAt: string;
  deadAt: string | null;
  deadReason: string | null;
}
interface DeviceList {
  total: number;
  live: number;
  dead: number;
  devices: Device[];
  nextCursor: string | null;
}

function Devices({ bot }: { bot: Bot }) {
  const [cursors, setCursors] = useState<Array<string | undefined>>([undefined]);
  const cursor = cursors[cursors.length - 1];
  const list = useLoad(() => api<DeviceList>('GET', `/v1/bots/${bot.id}/push/devices?limit=20${cursor ? `&cursor=${cursor}` : ''}`), [bot.id, cursor]);
  const unlink = useAction();
  const [done, setDone] = useState<string | null>(null);
  const d = list.data;
  const next = d?.nextCursor;
  return (
    <>
      <h2>Registered devices</h2>
      {d && (
        <p data-testid="device-counts">
          {d.total} registered: {d.live} live, {d.dead} no longer reachable.
        </p>
      )}
      {done && <Success>{done}</Success>}
      <ErrorNotice error={list.error ?? unlink.error} />
      <DataTable
        loading={list.loading && !d}
        spinner="Loading devices…"
        rows={d?.devices ?? []}
        empty={
          <EmptyState icon={Smartphone} title="No devices registered yet" testId="empty-devices">
            Your app registers each device's FCM token through the SDK once a user signs in (docs/sdk.md); they are listed here.
          </EmptyState>
        }
        busy={list.loading}
        caption="Registered devices"
        columns={['User', 'Platform', 'Token', 'Registered', 'State']}
        actions
        row={(x) => (
          <tr>
            <th scope="row">{x.userId}</th>
            <td>{x.platform}</td>
            <td>
              <code>{x.tokenPreview}</code>
            </td>
            <td>{when(x.registeredAt)}</td>
            <td>
              {x.deadAt ? (
                <span class="badge muted" title={x.deadReason ?? ''}>
                  Unreachable
                </span>
              ) : (
                <span class="badge ok">Live</span>
              )}
            </td>
            <td>
              <ConfirmButton
                action={unlink}
                label={`Unlink device ${x.tokenPreview} of ${x.userId}`}
                question={`Unlink this device of ${x.userId}? It gets no notifications until the app registers again.`}
                call={() => api('DELETE', `/v1/bots/${bot.id}/push/devices/${x.id}`)}
                onDone={() => {
                  setDone('Device unlinked.');
                  void list.reload(true);
                }}
              >
                Unlink
              </ConfirmButton>
            </td>
          </tr>
        )}
      >
        <PagerNav label="Device" back={cursors.length > 1 ? () => setCursors(cursors.slice(0, -1)) : undefined} forward={next ? () => setCursors([...cursors, next]) : undefined} />
      </DataTable>
    </>
  );
}
