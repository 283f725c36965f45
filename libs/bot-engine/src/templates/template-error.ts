/** A rendered template that cannot be used where it lands (e.g. a URL that is no longer an http(s) URL). */
export class TemplateError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateError';
  }
}
