import type { BotDefinition } from '@platform/contracts';

const PREFIX = 'journey:';

/** The journey a button's payload `journey:<slug>` names, when that journey exists (a carousel card's quick reply). */
export function journeyForPayload(definition: BotDefinition, payload: string | undefined): string | undefined {
  if (typeof payload !== 'string' || !payload.startsWith(PREFIX)) return undefined;
  const slug = payload.slice(PREFIX.length);
  return definition.journeys.some((journey) => journey.slug === slug) ? slug : undefined;
}
