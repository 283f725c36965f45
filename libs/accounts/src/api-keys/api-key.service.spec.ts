import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { ApiKey, ApiKeyRepository } from '@platform/database';
import { ApiKeyService } from './api-key.service.js';
import type { KeyRevocations } from './key-revocations.js';

/** One pub/sub channel shared by the replicas of a test; each replica's KeyRevocations hears it. */
class FakeChannel {
  readonly replicas: FakeRevocations[] = [];

  replica(): FakeRevocations {
    const r = new FakeRevocations(this);
    this.replicas.push(r);
    return r;
  }
}

class FakeRevocations {
  private listening_ = true;
  private readonly revoked: Array<(hash: string) => void> = [];
  private readonly resumed: Array<() => void> = [];

  constructor(private readonly channel: FakeChannel) {}

  get listening() {
    return this.listening_;
  }

  async publish(hash: string) {
    for (const r of this.channel.replicas) if (r.listening_) r.revoked.forEach((l) => l(hash));
  }

  onRevoked(l: (hash: string) => void) {
    this.revoked.push(l);
  }

  onListening(l: () => void) {
    this.resumed.push(l);
  }

  /** The subscription drops (revocations go unheard) or comes back (listeners told). */
  setListening(listening: boolean) {
    this.listening_ = listening;
    if (listening) this.resumed.forEach((l) => l());
  }
}

/** The api_keys table as the fake repository sees it; every replica shares it. */
function fakeKeys() {
  const rows = new Map<string, ApiKey>();
  const lookups: string[] = [];
  const touches: Array<[string, Date]> = [];
  /** Runs between a findByHash's read and its answer. */
  const hooks: { duringRead?: () => Promise<void> } = {};
  const repo = {
    create: async (data: { botId: string; name: string; prefix: string; hash: string }) => {
      const row = { id: `key-${rows.size + 1}`, createdAt: new Date(), lastUsedAt: null, revokedAt: null, ...data } as ApiKey;
      rows.set(row.id, row);
      return row;
    },
    findByHash: async (hash: string) => {
      lookups.push(hash);
      const row = [...rows.values()].find((r) => r.hash === hash);
      const read = row ? { ...row } : null;
      await hooks.duringRead?.();
      return read;
    },
    revoke: async (botId: string, id: string) => {
      const row = rows.get(id);
      if (!row || row.botId !== botId || row.revokedAt) return null;
      row.revokedAt = new Date();
      return row;
    },
    touchLastUsed: async (id: string, at: Date) => {
      touches.push([id, at]);
      return { count: 1 };
    },
  } as unknown as ApiKeyRepository;
  return { repo, rows, lookups, touches, hooks };
}

function setup() {
  const keys = fakeKeys();
  const channel = new FakeChannel();
  const replica = () => {
    const revocations = channel.replica();
    return { service: new ApiKeyService(keys.repo, revocations as unknown as KeyRevocations), revocations };
  };
  return { keys, replica };
}

describe('ApiKeyService', () => {
  beforeAll(() => Logger.overrideLogger(false));
  beforeEach(() => jest.useFakeTimers({ now: new Date('2026-03-01T10:00:00Z'), doNotFake: ['setImmediate', 'nextTick'] }));
  afterEach(() => jest.useRealTimers());

  it('answers a verified key from its cache: Postgres is read once', async () => {
    const { keys, replica } = setup();
    const { service } = replica();
    const { key, record } = await service.create('bot-1', 'ci');
    expect(await service.verify(key)).toEqual({ keyId: record.id, botId: 'bot-1' });
    expect(await service.verify(key)).toEqual({ keyId: record.id, botId: 'bot-1' });
    expect(keys.lookups).toHaveLength(1);
  });

  it('reads Postgres again once a cached key is a minute old', async () => {
    const { keys, replica } = setup();
    const { service } = replica();
    const { key } = await service.create('bot-1', 'ci');
    await service.verify(key);
    jest.advanceTimersByTime(59_000);
    await service.verify(key);
    expect(keys.lookups).toHaveLength(1);
    jest.advanceTimersByTime(2_000);
    await service.verify(key);
    expect(keys.lookups).toHaveLength(2);
  });

  it('refuses a key at once in the replica that revoked it', async () => {
    const { replica } = setup();
    const { service } = replica();
    const { key, record } = await service.create('bot-1', 'ci');
    await service.verify(key);
    expect(await service.revoke('bot-1', record.id)).toMatchObject({ id: record.id, revokedAt: expect.any(Date) });
    expect(await service.verify(key)).toBeNull();
  });

  it('refuses a revoked key at once in another replica that had it cached, through the revocation message', async () => {
    const { replica } = setup();
    const a = replica();
    const b = replica();
    const { key, record } = await a.service.create('bot-1', 'ci');
    await a.service.verify(key);
    expect(await b.service.verify(key)).not.toBeNull();
    await a.service.revoke('bot-1', record.id);
    expect(await b.service.verify(key)).toBeNull();
  });

  it('refuses a revoked key in its own replica even when the announcement fails', async () => {
    const { replica } = setup();
    const { service, revocations } = replica();
    const { key, record } = await service.create('bot-1', 'ci');
    await service.verify(key);
    const down = new Error('Redis did not answer while announcing the revocation');
    revocations.publish = async () => {
      throw down;
    };
    await expect(service.revoke('bot-1', record.id)).rejects.toBe(down);
    expect(await service.verify(key)).toBeNull();
  });

  it('does not cache a check whose Postgres read began before a revocation it heard', async () => {
    const { keys, replica } = setup();
    const a = replica();
    const b = replica();
    const { key, record } = await a.service.create('bot-1', 'ci');
    // b's read sees the key still live; the revocation commits and is announced before the read returns.
    keys.hooks.duringRead = async () => {
      keys.hooks.duringRead = undefined;
      await a.service.revoke('bot-1', record.id);
    };
    expect(await b.service.verify(key)).not.toBeNull(); // answered from the read, as of when it began
    expect(await b.service.verify(key)).toBeNull();
  });

  it('announces nothing when there was no live key to revoke', async () => {
    const { replica } = setup();
    const { service, revocations } = replica();
    const published: string[] = [];
    revocations.publish = async (hash: string) => void published.push(hash);
    expect(await service.revoke('bot-1', 'no-such-key')).toBeNull();
    expect(published).toEqual([]);
  });

  it('bypasses the cache while revocations are not heard, and starts from an empty cache when they are again', async () => {
    const { keys, replica } = setup();
    const a = replica();
    const b = replica();
    const { key, record } = await a.service.create('bot-1', 'ci');
    await b.service.verify(key); // cached in b
    b.revocations.setListening(false);
    await b.service.verify(key);
    await b.service.verify(key);
    expect(keys.lookups).toHaveLength(3); // every check read Postgres

    await a.service.revoke('bot-1', record.id); // b does not hear it
    expect(await b.service.verify(key)).toBeNull();
    b.revocations.setListening(true);
    expect(await b.service.verify(key)).toBeNull(); // the entry cached before the drop is gone
  });

  describe("verifyCached: the cache's answer without a promise, or undefined", () => {
    it('answers undefined until verify has cached the key, then the principal, until it is a minute old', async () => {
      const { keys, replica } = setup();
      const { service } = replica();
      const { key, record } = await service.create('bot-1', 'ci');
      expect(service.verifyCached(key)).toBeUndefined();
      await service.verify(key);
      expect(service.verifyCached(key)).toEqual({ keyId: record.id, botId: 'bot-1' });
      jest.advanceTimersByTime(61_000);
      expect(service.verifyCached(key)).toBeUndefined();
      expect(keys.lookups).toHaveLength(1); // it never reads Postgres itself
    });

    it('answers null for a revoked key at once, also in another replica that heard the revocation', async () => {
      const { replica } = setup();
      const a = replica();
      const b = replica();
      const { key, record } = await a.service.create('bot-1', 'ci');
      await a.service.verify(key);
      await b.service.verify(key);
      await a.service.revoke('bot-1', record.id);
      expect(a.service.verifyCached(key)).toBeUndefined();
      expect(b.service.verifyCached(key)).toBeUndefined();
      expect(await b.service.verify(key)).toBeNull();
      expect(b.service.verifyCached(key)).toBeNull();
    });

    it('answers undefined while revocations are not heard, and null for what is not an API key', async () => {
      const { replica } = setup();
      const { service, revocations } = replica();
      const { key } = await service.create('bot-1', 'ci');
      await service.verify(key);
      revocations.setListening(false);
      expect(service.verifyCached(key)).toBeUndefined();
      expect(service.verifyCached('not-a-key')).toBeNull();
    });
  });

  it('keeps an unknown key refused for 5 s before asking Postgres again', async () => {
    const { keys, replica } = setup();
    const { service } = replica();
    const unknown = `bpk_${'A'.repeat(43)}`;
    expect(await service.verify(unknown)).toBeNull();
    jest.advanceTimersByTime(4_000);
    expect(await service.verify(unknown)).toBeNull();
    expect(keys.lookups).toHaveLength(1);
    jest.advanceTimersByTime(2_000);
    expect(await service.verify(unknown)).toBeNull();
    expect(keys.lookups).toHaveLength(2);
  });

  it('refuses values that are not API keys without reading Postgres', async () => {
    const { keys, replica } = setup();
    const { service } = replica();
    expect(await service.verify('not-a-key')).toBeNull();
    expect(keys.lookups).toEqual([]);
  });

  it('writes last-used at most once a minute per key', async () => {
    const { keys, replica } = setup();
    const { service } = replica();
    const one = await service.create('bot-1', 'one');
    const two = await service.create('bot-1', 'two');
    await service.verify(one.key);
    await service.verify(two.key);
    jest.advanceTimersByTime(30_000);
    await service.verify(one.key);
    expect(keys.touches).toEqual([
      [one.record.id, new Date('2026-03-01T10:00:00Z')],
      [two.record.id, new Date('2026-03-01T10:00:00Z')],
    ]);
    jest.advanceTimersByTime(30_000);
    await service.verify(one.key);
    expect(keys.touches).toEqual([
      [one.record.id, new Date('2026-03-01T10:00:00Z')],
      [two.record.id, new Date('2026-03-01T10:00:00Z')],
      [one.record.id, new Date('2026-03-01T10:01:00Z')],
    ]);
  });
});
