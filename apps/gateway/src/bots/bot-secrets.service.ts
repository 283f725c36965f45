import { BadRequestException, Injectable, NotFoundException } from '@nestjs/common';
import { BOT_SECRET_NAME, BOT_SECRET_VALUE_MAX, BotSecretRepository } from '@platform/database';

/** A hosted bot's secrets for its http nodes: written and listed by name, never read back. */
@Injectable()
export class BotSecretsService {
  constructor(private readonly secrets: BotSecretRepository) {}

  async set(botId: string, name: string, value: string): Promise<{ name: string }> {
    checkName(name);
    // The DTO caps the length too; this is the repository's own bound, checked wherever a value comes from.
    if (value.length > BOT_SECRET_VALUE_MAX) throw new BadRequestException(`value must be at most ${BOT_SECRET_VALUE_MAX} characters`);
    await this.secrets.set(botId, name, value);
    return { name };
  }

  async list(botId: string): Promise<{ secrets: Array<{ name: string; updatedAt: string }> }> {
    return { secrets: (await this.secrets.list(botId)).map((s) => ({ name: s.name, updatedAt: s.updatedAt.toISOString() })) };
  }

  async delete(botId: string, name: string): Promise<void> {
    checkName(name);
    if (!(await this.secrets.delete(botId, name))) throw new NotFoundException(`Bot ${botId} has no secret ${name}`);
  }
}

function checkName(name: string): void {
  if (!BOT_SECRET_NAME.test(name)) throw new BadRequestException('name must be upper case letters, digits and _, starting with a letter, at most 64 characters (^[A-Z][A-Z0-9_]{0,63}$)');
}
