/** An expression that does not parse, uses something the language refuses, or cannot be evaluated. */
export class ExpressionError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExpressionError';
  }
}
