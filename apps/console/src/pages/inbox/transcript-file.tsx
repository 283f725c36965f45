import type { InboxMessageView } from '@platform/contracts/views';
import { Bot, download } from '../../api.js';
import { ErrorNotice, useAction } from '../../ui.js';

/**
 * What a file the user sent offers below its label: a web-chat file (stored by the platform) downloads
 * through the inbox's route with the member's access token (a link could not carry it, and the file's own
 * address is for the bot); WhatsApp media stays with Meta, which the transcript says.
 */
export function TranscriptFile({ bot, conversationId, message }: { bot: Bot; conversationId: string; message: InboxMessageView }) {
  const content = message.content as { attachment?: { filename?: string }; media?: unknown };
  if (content.attachment) return <FileDownload bot={bot} conversationId={conversationId} id={message.id} name={content.attachment.filename || 'file'} />;
  if (content.media) {
    return (
      <div class="transcript-file">
        <small>Kept by WhatsApp: the platform stores only Meta's reference to it, so it cannot be opened here.</small>
      </div>
    );
  }
  return null;
}

function FileDownload({ bot, conversationId, id, name }: { bot: Bot; conversationId: string; id: string; name: string }) {
  const action = useAction();
  return (
    <div class="transcript-file">
      <button
        type="button"
        class="secondary outline small"
        aria-label={`Download ${name}`}
        aria-busy={action.busy}
        disabled={action.busy}
        onClick={() => void action.run(() => download(`/v1/bots/${bot.id}/inbox/conversations/${conversationId}/messages/${id}/file`, name))}
      >
        Download
      </button>
      <ErrorNotice error={action.error} />
    </div>
  );
}
