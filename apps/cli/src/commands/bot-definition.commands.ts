import { readFile } from 'node:fs/promises';
import { validateBotDefinition } from '@platform/bot-engine';
import { definitionErrorText, isUuid } from '@platform/contracts';
import { BotDefinitionRepository, BotRepository } from '@platform/database';
import type { Prisma } from '@platform/database';
import { CliCommand, requireString } from '../command.js';
import { UsageError } from '../usage.error.js';

/** Who published, in the version list: an operator at the CLI (the API records `api-key:<id>`). */
const PUBLISHED_BY = 'cli';
const NOTE_MAX = 500;

async function requireBot(app: Parameters<CliCommand['run']>[0], botId: string): Promise<void> {
  if (!isUuid(botId) || !(await app.get(BotRepository).findById(botId))) throw new UsageError(`no bot ${botId}`);
}

function parseVersion(value: string): number {
  const n = /^\d{1,9}$/.test(value) ? Number(value) : NaN;
  if (!(n >= 1)) throw new UsageError('--version must be a positive integer');
  return n;
}

/**
 * Hosted bots' definitions, straight on the database like the CLI's other bot commands (the same
 * repository and validator as the API's POST /v1/bots/{botId}/versions).
 */
export const botDefinitionCommands: CliCommand[] = [
  {
    name: 'bot deploy',
    summary: 'Validate a bot definition file and publish it as the next version (new conversations start on it); its warnings go to stderr and never stop it',
    options: {
      bot: { description: 'Bot id', required: true },
      file: { description: 'Path of the definition (JSON)', required: true },
      note: { description: 'What changed, shown by bot versions' },
    },
    async run(app, args, out, warn) {
      const botId = requireString(args, 'bot');
      const path = requireString(args, 'file');
      const note = typeof args.note === 'string' && args.note.trim() !== '' ? args.note.trim() : null;
      if (note && note.length > NOTE_MAX) throw new UsageError(`--note must be at most ${NOTE_MAX} characters`);
      let doc: unknown;
      try {
        doc = JSON.parse(await readFile(path, 'utf8'));
      } catch (err) {
        throw new UsageError(`cannot read ${path} as JSON: ${(err as Error).message}`);
      }
      // Checked before the bot is looked up: a definition can be checked without a database's bot.
      const result = validateBotDefinition(doc);
      // Warnings never stop a deploy (docs/bots.md): they go to stderr, so the answer on stdout stays the version.
      for (const w of result.warnings) warn(`${path}: warning: ${definitionErrorText(w)}`);
      if (!result.ok) {
        out(`${path}: ${result.errors.length} error(s), nothing published:`);
        for (const e of result.errors) out(`  ${definitionErrorText(e)}`);
        return 1;
      }
      await requireBot(app, botId);
      const version = await app.get(BotDefinitionRepository).saveAndPublish(botId, doc as Prisma.InputJsonValue, PUBLISHED_BY, note);
      out(`bot ${botId}: version ${version} published`);
    },
  },
  {
    name: 'bot versions',
    summary: "List a hosted bot's published versions, newest first (* marks the one new conversations start on)",
    options: { bot: { description: 'Bot id', required: true } },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      await requireBot(app, botId);
      const { versions, publishedVersion } = await app.get(BotDefinitionRepository).listVersions(botId);
      if (versions.length === 0) {
        out(`bot ${botId} has no versions (deploy one with bot deploy)`);
        return;
      }
      for (const v of versions) {
        const mark = v.version === publishedVersion ? '*' : ' ';
        out(`${mark} ${v.version}  ${v.createdAt.toISOString()}  ${v.publishedBy ?? '-'}${v.note ? `  ${v.note}` : ''}`);
      }
      if (publishedVersion === null) out('no version is published: the webhook answers this bot');
    },
  },
  {
    name: 'bot rollback',
    summary: 'Publish an earlier version again (conversations in a journey keep their version until it ends)',
    options: {
      bot: { description: 'Bot id', required: true },
      version: { description: 'The version to publish', required: true },
    },
    async run(app, args, out) {
      const botId = requireString(args, 'bot');
      const version = parseVersion(requireString(args, 'version'));
      await requireBot(app, botId);
      if (!(await app.get(BotDefinitionRepository).rollback(botId, version))) throw new UsageError(`bot ${botId} has no version ${version}`);
      out(`bot ${botId}: version ${version} published`);
    },
  },
];
