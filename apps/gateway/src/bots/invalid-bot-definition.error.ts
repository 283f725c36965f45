import { BadRequestException } from '@nestjs/common';
import { definitionErrorText, type DefinitionError } from '@platform/contracts';

/** How many errors the message names; `errors` carries them all. */
const NAMED = 3;

/** One error or warning of a definition as the API answers it: every member present, null where it names nothing. */
export interface DefinitionProblemView {
  journey: string | null;
  node: string | null;
  field: string | null;
  message: string;
}

export const definitionProblemView = (e: DefinitionError): DefinitionProblemView => ({ journey: e.journey ?? null, node: e.node ?? null, field: e.field ?? null, message: e.message });

/** A definition the validator refused: 400 with every error, each naming its journey, node and field. */
export class InvalidBotDefinitionError extends BadRequestException {
  constructor(readonly errors: DefinitionError[]) {
    const named = errors.slice(0, NAMED).map(definitionErrorText).join('; ');
    const more = errors.length > NAMED ? ` (and ${errors.length - NAMED} more)` : '';
    super({ message: `Invalid bot definition: ${named}${more}`, errors: errors.map(definitionProblemView) });
  }
}
