import { generateKeyPairSync } from 'node:crypto';
import { checkServiceAccount } from './service-account.js';

const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

const good = {
  type: 'service_account',
  project_id: 'demo-project',
  private_key_id: 'abc',
  private_key: rsa,
  client_email: 'sa@demo-project.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
};

describe('checkServiceAccount', () => {
  it('accepts a Google service-account document', () => {
    expect(checkServiceAccount(good, { allowInsecureTokenUri: false })).toEqual({ ok: true, account: good });
  });

  it.each([
    ['type', { type: 'authorized_user' }, 'serviceAccount.type must be "service_account"'],
    ['project_id', { project_id: '' }, 'serviceAccount.project_id'],
    ['client_email', { client_email: 'nobody' }, 'serviceAccount.client_email'],
    ['private_key missing', { private_key: undefined }, 'serviceAccount.private_key is required'],
    ['private_key garbage', { private_key: '-----BEGIN PRIVATE KEY-----\nnope\n-----END PRIVATE KEY-----\n' }, 'serviceAccount.private_key is not a PEM RSA private key'],
    ['private_key not RSA', { private_key: ec }, 'serviceAccount.private_key is not a PEM RSA private key'],
    ['token_uri http', { token_uri: 'http://oauth2.googleapis.com/token' }, 'serviceAccount.token_uri must be an https URL'],
    ['token_uri loopback without flag', { token_uri: 'http://127.0.0.1:9/token' }, 'PUSH_ALLOW_INSECURE_TOKEN_URI=true'],
    ['token_uri not a URL', { token_uri: 'token' }, 'serviceAccount.token_uri must be an https URL'],
  ])('names the problem: %s', (_name, change, expected) => {
    const result = checkServiceAccount({ ...good, ...change }, { allowInsecureTokenUri: false });
    expect(result.ok).toBe(false);
    const problems = (result as { problems: string[] }).problems;
    expect(problems.join('; ')).toContain(expected);
    expect(problems.join('; ')).not.toContain('BEGIN');
  });

  it('accepts a loopback http token_uri only with the flag', () => {
    const doc = { ...good, token_uri: 'http://127.0.0.1:4000/token' };
    expect(checkServiceAccount(doc, { allowInsecureTokenUri: true }).ok).toBe(true);
    expect(checkServiceAccount({ ...doc, token_uri: 'http://10.0.0.1/token' }, { allowInsecureTokenUri: true }).ok).toBe(false);
  });

  it('reports every problem at once', () => {
    const result = checkServiceAccount({ type: 'x' }, { allowInsecureTokenUri: false });
    expect((result as { problems: string[] }).problems).toHaveLength(5);
  });
});
