import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { botDefinitionJsonSchema, validateBotDefinition } from '@platform/bot-engine';
import type { BotDefinition } from '@platform/contracts';
import { BotDefinitionRepository } from '@platform/database';
import type { Prisma } from '@platform/database';
import { type DefinitionProblemView, InvalidBotDefinitionError, definitionProblemView } from './invalid-bot-definition.error.js';
import { parseVersion } from './page-query.js';

export interface BotVersionView {
  version: number;
  createdAt: string;
  note: string | null;
  publishedBy: string | null;
  /** The version new conversations start on. */
  published: boolean;
}

/** A hosted bot's definition: the draft, publishing it as an immutable version, rollback and unpublish. */
@Injectable()
export class BotDefinitionService {
  constructor(private readonly definitions: BotDefinitionRepository) {}

  /** The JSON Schema the definition follows (the validator checks more: references, types, loops). */
  schema(): Record<string, unknown> {
    return botDefinitionJsonSchema;
  }

  /** Checks a document without refusing it: its errors and its warnings (the builder's check on every edit). */
  check(doc: unknown): { ok: boolean; errors: DefinitionProblemView[]; warnings: DefinitionProblemView[] } {
    const result = validateBotDefinition(doc);
    return { ok: result.ok, errors: result.ok ? [] : result.errors.map(definitionProblemView), warnings: result.warnings.map(definitionProblemView) };
  }

  /** Refuses an invalid document with every error it has; a valid one comes back with its warnings, which never refuse it. */
  validate(doc: unknown): { definition: BotDefinition; warnings: DefinitionProblemView[] } {
    const result = validateBotDefinition(doc);
    if (!result.ok) throw new InvalidBotDefinitionError(result.errors);
    return { definition: result.definition, warnings: result.warnings.map(definitionProblemView) };
  }

  async saveDraft(botId: string, doc: unknown): Promise<{ draftUpdatedAt: string; warnings: DefinitionProblemView[] }> {
    const { warnings } = this.validate(doc);
    const at = await this.definitions.saveDraft(botId, doc as Prisma.InputJsonValue);
    return { draftUpdatedAt: at.toISOString(), warnings };
  }

  async get(botId: string) {
    const state = await this.definitions.find(botId);
    return { draft: state?.draft ?? null, draftUpdatedAt: state?.draftUpdatedAt?.toISOString() ?? null, publishedVersion: state?.publishedVersion ?? null };
  }

  /**
   * Publishes the draft as the next version; checked again (the validator may have grown stricter since it was
   * saved). The warnings are those of the draft as published: they never stop it.
   */
  async publishDraft(botId: string, by: string | null, note: string | undefined): Promise<{ version: number; warnings: DefinitionProblemView[] }> {
    let warnings: DefinitionProblemView[] = [];
    const version = await this.definitions.publishDraft(botId, by, note ?? null, (draft) => {
      warnings = this.validate(draft).warnings;
    });
    if (version === null) throw new ConflictException(`Bot ${botId} has no draft to publish: save one with PUT /v1/bots/${botId}/definition first`);
    return { version, warnings };
  }

  /** Saves and publishes in one call (`bot deploy --file`). */
  async deploy(botId: string, doc: unknown, by: string | null, note: string | undefined): Promise<{ version: number; warnings: DefinitionProblemView[] }> {
    const { warnings } = this.validate(doc);
    return { version: await this.definitions.saveAndPublish(botId, doc as Prisma.InputJsonValue, by, note ?? null), warnings };
  }

  async versions(botId: string): Promise<{ publishedVersion: number | null; versions: BotVersionView[] }> {
    const { versions, publishedVersion } = await this.definitions.listVersions(botId);
    return {
      publishedVersion,
      versions: versions.map((v) => ({ version: v.version, createdAt: v.createdAt.toISOString(), note: v.note, publishedBy: v.publishedBy, published: v.version === publishedVersion })),
    };
  }

  async version(botId: string, version: string) {
    const n = parseVersion(version);
    const [found, publishedVersion] = await Promise.all([this.definitions.findVersion(botId, n), this.definitions.publishedVersion(botId)]);
    if (!found) throw new NotFoundException(`Bot ${botId} has no version ${n}`);
    return {
      version: found.version,
      createdAt: found.createdAt.toISOString(),
      note: found.note,
      publishedBy: found.publishedBy,
      published: found.version === publishedVersion,
      definition: found.definition,
    };
  }

  /** New conversations start on `version`; conversations in a journey keep theirs until it ends. */
  async rollback(botId: string, version: string): Promise<{ publishedVersion: number }> {
    const n = parseVersion(version);
    if (!(await this.definitions.rollback(botId, n))) throw new NotFoundException(`Bot ${botId} has no version ${n}`);
    return { publishedVersion: n };
  }

  /** The bot is an outside (webhook) bot again; its versions stay for a later rollback. */
  async unpublish(botId: string): Promise<void> {
    if (!(await this.definitions.unpublish(botId))) throw new NotFoundException(`Bot ${botId} has no published version`);
  }
}
