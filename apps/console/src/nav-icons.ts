import type { IconNode } from 'lucide';
import { Activity, Bell, FileText, Inbox, KeyRound, LayoutDashboard, Megaphone, MessagesSquare, Send, Settings, ShieldCheck, Smartphone, Users, Webhook, Workflow } from './icons.js';

/** The icon beside each section's and tab's link, by its route path; a path not named here has none. */
export const NAV_ICONS: Record<string, IconNode | undefined> = {
  overview: LayoutDashboard,
  messages: Activity,
  inbox: Inbox,
  builder: Workflow,
  whatsapp: MessagesSquare,
  campaigns: Megaphone,
  push: Bell,
  settings: Settings,
  senders: Smartphone,
  templates: FileText,
  'test-carousel': Send,
  'api-keys': KeyRound,
  webhook: Webhook,
  'oauth-clients': ShieldCheck,
  members: Users,
};
