import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM encryption of provider credentials at rest. The stored string is
 * `v1.<keyId>.<iv>.<tag>.<ciphertext>` (base64url parts), so keys can rotate: old rows name the key
 * that decrypts them, new rows use the active key.
 */
export class SecretBox {
  private readonly keys = new Map<string, Buffer>();
  readonly activeKeyId: string;

  /** `keyring` is `id:base64,id2:base64`; the active key defaults to the first. */
  constructor(keyring: string, activeKeyId?: string) {
    for (const pair of keyring.split(',')) {
      const [id, b64] = pair.split(':');
      const key = Buffer.from(b64, 'base64');
      if (key.length !== 32) throw new Error(`Encryption key "${id}" is not 32 bytes`);
      this.keys.set(id, key);
    }
    this.activeKeyId = activeKeyId ?? keyring.split(':')[0];
    if (!this.keys.has(this.activeKeyId)) throw new Error(`Active encryption key "${this.activeKeyId}" is not in the keyring`);
  }

  encrypt(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.keys.get(this.activeKeyId)!, iv);
    cipher.setAAD(Buffer.from(this.activeKeyId));
    const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return ['v1', this.activeKeyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join('.');
  }

  decrypt(sealed: string): string {
    const [version, keyId, iv, tag, ct] = sealed.split('.');
    if (version !== 'v1' || ct === undefined) throw new Error('Not a sealed secret');
    const key = this.keys.get(keyId);
    if (!key) throw new Error(`Secret was encrypted under key "${keyId}", which is not configured`);
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAAD(Buffer.from(keyId));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
  }

  /** Key id a sealed value was encrypted under (for rotation). */
  static keyIdOf(sealed: string): string {
    return sealed.split('.')[1];
  }
}
