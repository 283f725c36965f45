import { renderWhatsAppSession } from './whatsapp-session.renderer.js';

describe('renderWhatsAppSession', () => {
  it('sends plain text as a text message and text with quick replies as reply buttons', () => {
    expect(renderWhatsAppSession('919876543210', 'text', { text: 'hi' })).toEqual([
      { messaging_product: 'whatsapp', recipient_type: 'individual', to: '919876543210', type: 'text', text: { body: 'hi', preview_url: false } },
    ]);
    const [buttons] = renderWhatsAppSession('1', 'text', { text: 'pick', quickReplies: [{ title: 'Yes', payload: 'y' }] }) as Array<Record<string, any>>;
    expect(buttons.interactive).toEqual({ type: 'button', body: { text: 'pick' }, action: { buttons: [{ type: 'reply', reply: { id: 'y', title: 'Yes' } }] } });
  });

  it('sends an image with its caption, and a carousel of pictured cards as an interactive carousel', () => {
    expect(renderWhatsAppSession('1', 'image', { image: { url: 'https://x/1.jpg', caption: 'c' } })[0]).toMatchObject({ type: 'image', image: { link: 'https://x/1.jpg', caption: 'c' } });
    const cards = [1, 2].map((n) => ({ title: `Card ${n}`, imageUrl: `https://x/${n}.jpg`, buttons: [{ title: `Pick ${n}`, payload: `p${n}` }] }));
    const [carousel] = renderWhatsAppSession('1', 'carousel', { cards }) as Array<Record<string, any>>;
    expect(carousel.interactive.type).toBe('carousel');
    expect(carousel.interactive.action.cards[1]).toMatchObject({
      card_index: 1,
      header: { image: { link: 'https://x/2.jpg' } },
      action: { buttons: [{ quick_reply: { id: 'p2', title: 'Pick 2' } }] },
    });
  });

  it('sends a single card as one reply-button message', () => {
    const out = renderWhatsAppSession('1', 'carousel', { cards: [{ title: 'Only', buttons: [{ title: 'Go', payload: 'go' }] }] });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ type: 'interactive', interactive: { type: 'button', body: { text: 'Only' } } });
  });
});
