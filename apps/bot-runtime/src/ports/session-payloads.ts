import { Injectable } from '@nestjs/common';
import { PrismaService } from '@platform/database';

/**
 * The web session's payload for a journey a message starts once the last one ended: the conversation
 * keeps no state after its journey ends, so the payload is that of its latest session start (a `start`
 * input, which the gateway stores with the payload the app passed) before the message.
 */
@Injectable()
export class SessionPayloads {
  constructor(private readonly db: PrismaService) {}

  /**
   * Read on a pooled connection of its own while the turn holds its lock: a plain read of committed rows
   * the lock does not cover, so it never waits on a turn; TurnSlots leaves two connections spare.
   */
  async before(conversationId: string, seq: bigint): Promise<string | null> {
    const { rows } = await this.db.query<{ payload: string | null }>({
      name: 'bot-turn-session-payload',
      text: `SELECT "payload" FROM "bot_inputs" WHERE "conversation_id" = $1::uuid AND "kind" = 'start' AND "seq" < $2::bigint ORDER BY "seq" DESC LIMIT 1`,
      values: [conversationId, seq.toString()],
    });
    return rows[0]?.payload ?? null;
  }
}
