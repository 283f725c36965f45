import { IntEnv } from '../env-decorators.js';

/** The in-memory copy of bots' templates and senders the gateway and the channel worker keep. */
export class CatalogEnv {
  /** How long a bot's templates and senders are kept in memory (0: always read Postgres). */
  @IntEnv({ min: 0, max: 60000 })
  CATALOG_CACHE_MS: number = 5000;
}
