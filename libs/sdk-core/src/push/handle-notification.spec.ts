import { ValidationError } from '../errors';
import { handleNotification } from './handle-notification';

const base = { ymAuthenticationToken: 'tok', payload: { userName: 'Ada' }, enableSpeech: false, statusBarColor: '#112233' };

describe('handleNotification', () => {
  it('opens the notified bot as v2 with the token and JourneySlug merged into the payload', () => {
    expect(handleNotification({ botId: 'x99', journeySlug: 'card-renewal' }, base)).toEqual({
      ...base,
      botId: 'x99',
      version: 2,
      ymAuthenticationToken: 'tok',
      payload: { userName: 'Ada', JourneySlug: 'card-renewal' },
    });
  });

  it('opens the bot without JourneySlug when journeySlug is absent or empty', () => {
    for (const data of [{ botId: 'x99' }, { botId: 'x99', journeySlug: '' }]) {
      const config = handleNotification(data, base);
      expect(config).toMatchObject({ botId: 'x99', version: 2, ymAuthenticationToken: 'tok', payload: { userName: 'Ada' } });
      expect(config?.payload).not.toHaveProperty('JourneySlug');
    }
  });

  it('overrides the base botId and version', () => {
    expect(handleNotification({ botId: 'x2' }, { ...base, botId: 'x1', version: 1 })).toMatchObject({ botId: 'x2', version: 2 });
  });

  it('does not change the base config', () => {
    const copy = JSON.parse(JSON.stringify(base)) as typeof base;
    handleNotification({ botId: 'x', journeySlug: 'j' }, base);
    expect(base).toEqual(copy);
  });

  it('works without a base payload', () => {
    expect(handleNotification({ botId: 'x', journeySlug: 'j' }, { ymAuthenticationToken: 'tok' })?.payload).toEqual({ JourneySlug: 'j' });
  });

  it.each([{}, { journeySlug: 'j' }, { botId: '' }, { botId: '  ' }, { botId: 5 }, null, undefined])('returns null for a notification without botId (%p)', (data) => {
    expect(handleNotification(data as Record<string, unknown> | null | undefined, base)).toBeNull();
  });

  it('refuses to open a bot without the chat auth token', () => {
    expect(() => handleNotification({ botId: 'x' }, { payload: {} })).toThrow(ValidationError);
    expect(() => handleNotification({ botId: 'x' }, { payload: {} })).toThrow(expect.objectContaining({ field: 'ymAuthenticationToken', rule: 'required' }));
  });
});
