/**
 * Who published a version, in words: the API names a member as `user:<id>` and a key as `api-key:<id>`.
 * A member is named by their e-mail from the bot's members; one no longer among them has left the bot.
 * `emails` is null when the members could not be read.
 */
export function publisherName(by: string | null, emails: Map<string, string> | null): string | null {
  if (!by) return null;
  if (by.startsWith('api-key:')) return 'an API key';
  if (!by.startsWith('user:')) return by;
  if (!emails) return 'a member';
  return emails.get(by.slice('user:'.length)) ?? 'a member who has since left the bot';
}
