import { capScopesToRole, parseScope, roleAllowedByScopes } from './roles.js';

describe('roles and scopes', () => {
  it('parses known scopes only', () => {
    expect(parseScope('bot:read bot:admin bot:read')).toEqual(['bot:read', 'bot:admin']);
    expect(parseScope('bot:read openid')).toBeNull();
    expect(parseScope('bot:read  bot:admin')).toBeNull();
  });

  it('maps scopes to the highest role they allow', () => {
    expect(roleAllowedByScopes(['bot:read'])).toBe('viewer');
    expect(roleAllowedByScopes(['bot:read', 'bot:write'])).toBe('developer');
    expect(roleAllowedByScopes(['bot:admin'])).toBe('admin');
    expect(roleAllowedByScopes([])).toBeNull();
  });

  it("lowers requested scopes to the user's role", () => {
    expect(capScopesToRole(['bot:admin'], 'viewer')).toEqual(['bot:read']);
    expect(capScopesToRole(['bot:read', 'bot:admin'], 'developer')).toEqual(['bot:read', 'bot:write']);
    expect(capScopesToRole(['bot:read', 'bot:admin'], 'admin')).toEqual(['bot:read', 'bot:admin']);
  });
});
