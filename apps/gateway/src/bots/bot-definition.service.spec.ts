import 'reflect-metadata';
import { BadRequestException, ConflictException, NotFoundException } from '@nestjs/common';
import type { BotDefinitionRepository, BotVersionRecord, Prisma } from '@platform/database';
import { BotDefinitionService } from './bot-definition.service.js';
import { InvalidBotDefinitionError } from './invalid-bot-definition.error.js';

const BOT = '0b6f3c52-94a5-4d0e-9e77-7d8f5b0b2c11';

const valid = {
  schemaVersion: 1,
  startJourney: 'welcome',
  variables: [],
  journeys: [
    {
      slug: 'welcome',
      start: 'hello',
      nodes: [
        { id: 'hello', kind: 'message', text: 'Hi' },
        { id: 'bye', kind: 'end' },
      ],
      edges: [{ from: 'hello', to: 'bye' }],
    },
  ],
};
/** Valid, with a warning: a question with no `invalid` edge. */
const asking = {
  ...valid,
  variables: [{ name: 'name', type: 'string' }],
  journeys: [
    {
      slug: 'welcome',
      start: 'ask',
      nodes: [
        { id: 'ask', kind: 'question', text: 'Name?', answer: { type: 'text' }, variable: 'name' },
        { id: 'bye', kind: 'end' },
      ],
      edges: [{ from: 'ask', to: 'bye' }],
    },
  ],
};
const dangling = { ...valid, journeys: [{ ...valid.journeys[0], edges: [{ from: 'hello', to: 'nowhere' }] }] };

/** The repository in memory: the draft, the versions, the pointer. */
class FakeDefinitions {
  draft: Prisma.JsonValue | null = null;
  published: number | null = null;
  versions: BotVersionRecord[] = [];

  async find() {
    return this.draft === null && this.versions.length === 0 ? null : { draft: this.draft, draftUpdatedAt: new Date(), publishedVersion: this.published };
  }
  async publishedVersion() {
    return this.published;
  }
  async saveDraft(_botId: string, draft: Prisma.JsonValue) {
    this.draft = draft;
    return new Date('2026-12-10T10:00:00Z');
  }
  async publishDraft(_botId: string, by: string | null, note: string | null, check: (d: Prisma.JsonValue) => void) {
    if (this.draft === null) return null;
    check(this.draft);
    return this.add(this.draft, by, note);
  }
  async saveAndPublish(_botId: string, definition: Prisma.JsonValue, by: string | null, note: string | null) {
    this.draft = definition;
    return this.add(definition, by, note);
  }
  async listVersions() {
    return { versions: [...this.versions].reverse(), publishedVersion: this.published };
  }
  async findVersion(_botId: string, version: number) {
    return this.versions.find((v) => v.version === version) ?? null;
  }
  async rollback(_botId: string, version: number) {
    if (!this.versions.some((v) => v.version === version)) return false;
    this.published = version;
    return true;
  }
  async unpublish() {
    const was = this.published !== null;
    this.published = null;
    return was;
  }
  private add(definition: Prisma.JsonValue, publishedBy: string | null, note: string | null) {
    const version = this.versions.length + 1;
    this.versions.push({ version, definition, publishedBy, note, createdAt: new Date() });
    this.published = version;
    return version;
  }
}

function setup() {
  const repo = new FakeDefinitions();
  return { repo, service: new BotDefinitionService(repo as unknown as BotDefinitionRepository) };
}

describe('BotDefinitionService', () => {
  it('saves a valid draft and refuses an invalid one with every error named by journey, node and field', async () => {
    const { service, repo } = setup();
    expect(await service.saveDraft(BOT, valid)).toEqual({ draftUpdatedAt: '2026-12-10T10:00:00.000Z', warnings: [] });
    expect(repo.draft).toEqual(valid);
    const refused = await service.saveDraft(BOT, dangling).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(InvalidBotDefinitionError);
    const { errors, message } = (refused as InvalidBotDefinitionError).getResponse() as { errors: Array<{ journey: string | null }>; message: string };
    expect(errors).toContainEqual(expect.objectContaining({ journey: 'welcome', node: expect.any(String), field: expect.any(String), message: expect.any(String) }));
    expect(message).toMatch(/^Invalid bot definition: welcome\//);
    expect(repo.draft).toEqual(valid); // unchanged
    await expect(service.saveDraft(BOT, [valid])).rejects.toBeInstanceOf(BadRequestException);
  });

  it('publishes the draft as numbered versions; 409 without a draft', async () => {
    const { service } = setup();
    await expect(service.publishDraft(BOT, null, undefined)).rejects.toBeInstanceOf(ConflictException);
    await expect(service.publishDraft(BOT, null, undefined)).rejects.toThrow(/no draft to publish/);
    await service.saveDraft(BOT, valid);
    expect(await service.publishDraft(BOT, 'api-key:k1', 'first')).toEqual({ version: 1, warnings: [] });
    expect(await service.deploy(BOT, valid, 'api-key:k1', undefined)).toEqual({ version: 2, warnings: [] });
    const { versions, publishedVersion } = await service.versions(BOT);
    expect(publishedVersion).toBe(2);
    expect(versions).toEqual([
      expect.objectContaining({ version: 2, published: true, note: null }),
      expect.objectContaining({ version: 1, published: false, note: 'first', publishedBy: 'api-key:k1' }),
    ]);
  });

  it('answers warnings with every member, and saves, publishes and deploys all the same; check answers errors and warnings without refusing', async () => {
    const { service, repo } = setup();
    const warning = { journey: 'welcome', node: 'ask', field: 'maxRetries', message: expect.stringContaining('no "invalid" edge') };
    expect(await service.saveDraft(BOT, asking)).toEqual({ draftUpdatedAt: expect.any(String), warnings: [warning] });
    expect(await service.publishDraft(BOT, null, undefined)).toEqual({ version: 1, warnings: [warning] });
    expect(await service.deploy(BOT, asking, null, undefined)).toEqual({ version: 2, warnings: [warning] });
    expect(repo.versions).toHaveLength(2);
    expect(service.check(asking)).toEqual({ ok: true, errors: [], warnings: [warning] });
    expect(service.check(valid)).toEqual({ ok: true, errors: [], warnings: [] });
    const both = service.check({ ...asking, journeys: [{ ...asking.journeys[0], edges: [{ from: 'ask', to: 'nowhere' }] }] });
    expect(both).toMatchObject({ ok: false, errors: [expect.objectContaining({ node: 'ask', field: 'edges[0].to' }), ...both.errors.slice(1)], warnings: [warning] });
    expect(service.check([asking])).toMatchObject({ ok: false, warnings: [] });
  });

  it('checks a draft again when publishing it', async () => {
    const { service, repo } = setup();
    repo.draft = dangling; // saved before the validator grew stricter
    await expect(service.publishDraft(BOT, null, undefined)).rejects.toBeInstanceOf(InvalidBotDefinitionError);
    expect(repo.versions).toEqual([]);
  });

  it('deploy refuses an invalid definition and publishes nothing', async () => {
    const { service, repo } = setup();
    await expect(service.deploy(BOT, dangling, null, undefined)).rejects.toBeInstanceOf(InvalidBotDefinitionError);
    expect(repo.versions).toEqual([]);
  });

  it('reads a version, rolls back to one, 404 for an unknown one and 400 for a bad number', async () => {
    const { service } = setup();
    await service.deploy(BOT, valid, null, undefined);
    await service.deploy(BOT, valid, null, 'v2');
    expect(await service.version(BOT, '1')).toMatchObject({ version: 1, published: false, definition: valid });
    expect(await service.rollback(BOT, '1')).toEqual({ publishedVersion: 1 });
    expect(await service.version(BOT, '1')).toMatchObject({ published: true });
    await expect(service.rollback(BOT, '3')).rejects.toBeInstanceOf(NotFoundException);
    await expect(service.version(BOT, '3')).rejects.toBeInstanceOf(NotFoundException);
    for (const bad of ['0', '-1', 'x', '1.5', '99999999999']) await expect(service.version(BOT, bad)).rejects.toThrow('version must be a positive integer');
  });

  it('unpublishes (the webhook answers again); 404 when nothing is published', async () => {
    const { service } = setup();
    await expect(service.unpublish(BOT)).rejects.toBeInstanceOf(NotFoundException);
    await service.deploy(BOT, valid, null, undefined);
    await service.unpublish(BOT);
    expect(await service.get(BOT)).toMatchObject({ draft: valid, publishedVersion: null });
  });
});
