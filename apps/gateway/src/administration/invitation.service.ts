import { ConflictException, Injectable, NotFoundException } from '@nestjs/common';
import { Clock, UserInputError, UserService, normaliseEmail } from '@platform/accounts';
import { HttpEnv } from '@platform/config';
import { isUuid } from '@platform/contracts';
import { randomToken, sha256Hex } from '@platform/crypto';
import { BotRepository, BotRole, Invitation, InvitationRepository } from '@platform/database';

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 3600 * 1000;
export const INVITATION_PREFIX = 'biv_';
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+$/;

export interface InvitationView {
  id: string;
  email: string;
  role: BotRole;
  createdAt: string;
  expiresAt: string;
}

/**
 * Invitations by link for people without an account: the link carries a random token (256 bits) that is stored
 * only as its SHA-256 hash, works once and expires after 7 days. Accepting it creates the account with the
 * password the person chooses and gives it the invited role.
 */
@Injectable()
export class InvitationService {
  constructor(
    private readonly invitations: InvitationRepository,
    private readonly bots: BotRepository,
    private readonly users: UserService,
    private readonly clock: Clock,
    private readonly http: HttpEnv,
  ) {}

  async create(botId: string, invitedBy: string, email: string, role: BotRole): Promise<InvitationView & { token: string; url: string }> {
    const normalised = normaliseEmail(email);
    if (!EMAIL_PATTERN.test(normalised) || normalised.length > 320) throw new UserInputError('email must be an e-mail address');
    if (await this.users.findByEmail(normalised)) {
      throw new ConflictException(`${normalised} has an account already; give it a role under Members instead (PUT /v1/bots/<bot>/members)`);
    }
    const token = `${INVITATION_PREFIX}${randomToken(32)}`;
    const row = await this.invitations.create({ botId, email: normalised, role, tokenHash: sha256Hex(token), invitedBy, expiresAt: new Date(this.clock.now().getTime() + INVITATION_TTL_MS) });
    return { ...view(row), token, url: `${this.http.BASE_URL}/console/#/invitation/${token}` };
  }

  async pending(botId: string): Promise<InvitationView[]> {
    return (await this.invitations.listPending(botId, this.clock.now())).map(view);
  }

  async revoke(botId: string, id: string): Promise<void> {
    if (!isUuid(id) || !(await this.invitations.revoke(botId, id, this.clock.now()))) throw new NotFoundException(`No pending invitation ${id} for this bot`);
  }

  /** What the link is for (e-mail, bot, role), for the page where it is accepted; 404 when it no longer works. */
  async lookup(token: string): Promise<{ email: string; bot: string; role: BotRole; expiresAt: string }> {
    const inv = await this.invitations.findLive(sha256Hex(token), this.clock.now());
    if (!inv) throw gone();
    const bot = await this.bots.findById(inv.botId);
    return { email: inv.email, bot: bot?.name ?? 'a bot', role: inv.role, expiresAt: inv.expiresAt.toISOString() };
  }

  /** Creates the account and its role; 404 when the link is unknown, used, revoked or expired. */
  async accept(token: string, password: string): Promise<{ userId: string; botId: string; email: string }> {
    const passwordHash = await this.users.hashPassword(password);
    const hash = sha256Hex(token);
    const inv = await this.invitations.findLive(hash, this.clock.now());
    if (!inv) throw gone();
    if (await this.users.findByEmail(inv.email)) throw new ConflictException(`${inv.email} has an account already; sign in with it`);
    const accepted = await this.invitations.accept(hash, this.clock.now(), passwordHash);
    if (!accepted) throw gone();
    return accepted;
  }
}

function gone(): NotFoundException {
  return new NotFoundException('This invitation link is unknown, used, withdrawn or expired; ask for a new one');
}

function view(i: Invitation): InvitationView {
  return { id: i.id, email: i.email, role: i.role, createdAt: i.createdAt.toISOString(), expiresAt: i.expiresAt.toISOString() };
}
