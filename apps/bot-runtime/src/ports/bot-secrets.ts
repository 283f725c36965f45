import { Injectable } from '@nestjs/common';
import { SecretBox } from '@platform/crypto';

/**
 * A bot's secrets for its http nodes, opened (SecretBox) only when a turn's node first reads them and
 * kept for that turn only: a turn without such a node never reads or decrypts them.
 */
@Injectable()
export class BotSecrets {
  constructor(private readonly box: SecretBox) {}

  /** A loader for one turn over `read` (the sealed values): the first call reads and opens them, later calls answer the same. */
  forTurn(read: () => Promise<Array<{ name: string; valueEncrypted: string }>>): () => Promise<Record<string, string>> {
    let loaded: Promise<Record<string, string>> | undefined;
    return () => (loaded ??= read().then((sealed) => Object.fromEntries(sealed.map((s) => [s.name, this.box.decrypt(s.valueEncrypted)]))));
  }
}
