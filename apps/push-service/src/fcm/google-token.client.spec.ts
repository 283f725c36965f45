import { generateKeyPairSync, verify } from 'node:crypto';
import { FIREBASE_MESSAGING_SCOPE, signAssertion } from './google-token.client.js';

describe('signAssertion', () => {
  it('is an RS256 JWT for the token endpoint with the FCM scope, valid one hour', () => {
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwt = signAssertion({ clientEmail: 'sa@p.iam.gserviceaccount.com', privateKeyId: 'kid1', privateKey, tokenUri: 'https://oauth2.googleapis.com/token' }, 1000);
    const [h, p, s] = jwt.split('.');
    expect(JSON.parse(Buffer.from(h, 'base64url').toString())).toEqual({ alg: 'RS256', typ: 'JWT', kid: 'kid1' });
    expect(JSON.parse(Buffer.from(p, 'base64url').toString())).toEqual({
      iss: 'sa@p.iam.gserviceaccount.com',
      scope: FIREBASE_MESSAGING_SCOPE,
      aud: 'https://oauth2.googleapis.com/token',
      iat: 1000,
      exp: 4600,
    });
    expect(verify('RSA-SHA256', Buffer.from(`${h}.${p}`), publicKey, Buffer.from(s, 'base64url'))).toBe(true);
  });
});
