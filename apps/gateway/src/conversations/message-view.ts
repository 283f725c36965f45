// The view is shared with the bot runtime's reply path (libs/conversations).
export { toMessageView } from '@platform/conversations';
