import { Injectable } from '@nestjs/common';
import { type TurnRequest, runTurn } from '@platform/bot-engine';
import type { BotTurnResult } from '@platform/contracts';

/** The engine behind a provider, so the turn service's spec can put a scripted one in its place. */
@Injectable()
export class TurnEngine {
  run(request: TurnRequest): Promise<BotTurnResult> {
    return runTurn(request);
  }
}
