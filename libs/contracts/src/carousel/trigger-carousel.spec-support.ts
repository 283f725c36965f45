/** A trigger body of the specs: one recipient, template and sender, with these cards and carousel parameters. */
export function triggerBody<Card extends object>(params: { cards: Card[]; bodyParameters?: string[] }) {
  return { userDetails: { number: '+919876543210' }, notification: { templateId: 't1', type: 'whatsapp', sender: '15550001111', params } };
}
