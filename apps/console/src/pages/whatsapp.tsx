import { Bot } from '../api.js';
import { SendersPage } from './whatsapp-senders.js';
import { TemplatesPage } from './whatsapp-templates.js';
import { TestCarouselPage } from './whatsapp-test-carousel.js';
import { Tab, Tabs, tabOf } from '../tabs.js';

const TABS: Tab[] = [
  { path: 'senders', label: 'Senders' },
  { path: 'templates', label: 'Templates' },
  { path: 'test-carousel', label: 'Test carousel' },
];

/** WhatsApp → Senders | Templates | Test carousel. */
export function WhatsAppPage({ bot, sub }: { bot: Bot; sub: string }) {
  const current = tabOf(TABS, sub);
  return (
    <section>
      <Tabs title="WhatsApp" base={['bots', bot.id, 'whatsapp']} tabs={TABS} current={current} />
      {current.path === 'templates' ? <TemplatesPage bot={bot} /> : current.path === 'test-carousel' ? <TestCarouselPage bot={bot} /> : <SendersPage bot={bot} />}
    </section>
  );
}
