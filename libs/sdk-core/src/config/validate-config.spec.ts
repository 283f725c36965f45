import { ValidationError, type ValidationRule } from '../errors';
import { findConfigErrors, validateBotConfig } from './validate-config';

const cloudHost = 'cloud.example.com';
const valid = { botId: 'x1234', ymAuthenticationToken: 'user_42-abc' };

function errorOf(config: Record<string, unknown>): ValidationError {
  try {
    validateBotConfig({ ...valid, ...config }, { cloudHost });
  } catch (error) {
    if (error instanceof ValidationError) return error;
    throw error;
  }
  throw new Error('expected a ValidationError');
}

function expectRule(config: Record<string, unknown>, field: string, rule: ValidationRule, path = field): void {
  const error = errorOf(config);
  expect({ field: error.field, rule: error.rule, path: error.path }).toEqual({ field, rule, path });
  expect(error.message).toContain(field);
}

describe('validateBotConfig', () => {
  it('accepts a minimal config and applies defaults', () => {
    expect(validateBotConfig({ botId: 'b1' }, { cloudHost })).toEqual({ botId: 'b1', payload: {}, version: 2, enableSpeech: false });
  });

  it('accepts every field at its rule', () => {
    const config = {
      botId: 'b1',
      ymAuthenticationToken: 'A'.repeat(30) + 'z09_-aZ_-9',
      payload: { name: 'Ada', n: 1.5, ok: true, none: null, list: [1, 'two', { three: [] }], skip: undefined },
      version: 2,
      customBaseUrl: 'https://r3.cloud.example.com/',
      enableSpeech: true,
      closeButtonColor: '#AABBCC',
      statusBarColor: '#80aabbcc',
      deviceToken: 'fcm-token',
    };
    expect(config.ymAuthenticationToken).toHaveLength(40);
    const resolved = validateBotConfig(config, { cloudHost });
    const { skip: _skip, ...sentPayload } = config.payload;
    expect(resolved).toEqual({ ...config, payload: sentPayload, customBaseUrl: 'https://r3.cloud.example.com' });
    expect(findConfigErrors(config, { cloudHost })).toEqual([]);
    expect(resolved.payload).not.toHaveProperty('skip');
  });

  it('copies the payload so that later changes by the app are not sent', () => {
    const payload = { tier: 1 };
    const resolved = validateBotConfig({ botId: 'b', payload }, { cloudHost });
    payload.tier = 2;
    expect(resolved.payload).toEqual({ tier: 1 });
  });

  it('refuses a config that is not a plain object', () => {
    for (const input of [null, 'botId', [], new Date()]) {
      expect(() => validateBotConfig(input, { cloudHost })).toThrow(expect.objectContaining({ field: 'config', rule: 'type' }));
    }
  });

  it('refuses a bad cloudHost option', () => {
    for (const host of ['', 'https://cloud.example.com', 'cloud.example.com/path', 'bad host']) {
      expect(() => validateBotConfig(valid, { cloudHost: host })).toThrow(expect.objectContaining({ field: 'cloudHost', rule: 'hostname' }));
    }
  });

  describe('botId', () => {
    it('is required', () => expectRule({ botId: undefined }, 'botId', 'required'));
    it('must be a string', () => expectRule({ botId: 12 }, 'botId', 'type'));
    it('must not be empty', () => expectRule({ botId: '' }, 'botId', 'blank'));
    it('must not be blank', () => expectRule({ botId: '   ' }, 'botId', 'blank'));
  });

  describe('ymAuthenticationToken', () => {
    it('is optional', () => expect(validateBotConfig({ botId: 'b' }, { cloudHost }).ymAuthenticationToken).toBeUndefined());
    it('accepts exactly 40 characters', () => expect(() => validateBotConfig({ ...valid, ymAuthenticationToken: 'a'.repeat(40) }, { cloudHost })).not.toThrow());
    it('refuses 41 characters', () => expectRule({ ymAuthenticationToken: 'a'.repeat(41) }, 'ymAuthenticationToken', 'maxLength'));
    it('must be a string', () => expectRule({ ymAuthenticationToken: 42 }, 'ymAuthenticationToken', 'type'));
    it('must not be empty', () => expectRule({ ymAuthenticationToken: '' }, 'ymAuthenticationToken', 'blank'));
    it.each(['has space', 'dot.dot', 'slash/', 'plus+', 'é', 'tab\t', 'emoji😀'])('refuses characters outside A-Z a-z 0-9 _ - (%j)', (token) =>
      expectRule({ ymAuthenticationToken: token }, 'ymAuthenticationToken', 'charset'),
    );
  });

  describe('payload', () => {
    it('must be a plain object', () => {
      expectRule({ payload: [] }, 'payload', 'plainObject');
      expectRule({ payload: 'x' }, 'payload', 'plainObject');
      expectRule({ payload: null }, 'payload', 'plainObject');
      expectRule({ payload: new Map() }, 'payload', 'plainObject');
    });
    it('accepts Object.create(null)', () => {
      const payload = Object.create(null) as Record<string, unknown>;
      payload.a = 1;
      expect(validateBotConfig({ ...valid, payload }, { cloudHost }).payload).toEqual({ a: 1 });
    });
    it('refuses nested non-plain objects', () => {
      expectRule({ payload: { when: new Date() } }, 'payload', 'plainObject', 'payload.when');
      class Thing {}
      expectRule({ payload: { list: [new Thing()] } }, 'payload', 'plainObject', 'payload.list[0]');
    });
    it('refuses functions', () => expectRule({ payload: { f: () => 1 } }, 'payload', 'function', 'payload.f'));
    it('refuses cycles', () => {
      const payload: Record<string, unknown> = { a: {} };
      (payload.a as Record<string, unknown>).back = payload;
      expectRule({ payload }, 'payload', 'cycle', 'payload.a.back');
      const list: unknown[] = [];
      list.push(list);
      expectRule({ payload: { list } }, 'payload', 'cycle', 'payload.list[0]');
    });
    it('accepts the same object twice when it is not a cycle', () => {
      const shared = { x: 1 };
      expect(() => validateBotConfig({ ...valid, payload: { a: shared, b: shared, c: [shared, shared] } }, { cloudHost })).not.toThrow();
    });
    it('refuses BigInt', () => expectRule({ payload: { n: BigInt(1) } }, 'payload', 'bigint', 'payload.n'));
    it('refuses symbols as values and as keys', () => {
      expectRule({ payload: { s: Symbol('s') } }, 'payload', 'symbol', 'payload.s');
      expectRule({ payload: { [Symbol('k')]: 1 } }, 'payload', 'symbol', 'payload');
    });
    it('refuses undefined in arrays, including holes', () => {
      expectRule({ payload: { list: [1, undefined] } }, 'payload', 'undefinedInArray', 'payload.list[1]');
      // eslint-disable-next-line no-sparse-arrays
      expectRule({ payload: { list: [1, , 3] } }, 'payload', 'undefinedInArray', 'payload.list[1]');
    });
    it.each([NaN, Infinity, -Infinity])('refuses the non-finite number %p', (n) => expectRule({ payload: { deep: { n } } }, 'payload', 'nonFiniteNumber', 'payload.deep.n'));
    it('names odd keys in the path', () => expectRule({ payload: { 'a b': [0, { 'x-y': NaN }] } }, 'payload', 'nonFiniteNumber', 'payload["a b"][1]["x-y"]'));
    it('refuses nesting deeper than 64 levels', () => {
      let deep: Record<string, unknown> = {};
      const payload = deep;
      for (let i = 0; i < 70; i++) deep = (deep.n = {}) as Record<string, unknown>;
      expect(errorOf({ payload }).rule).toBe('depth');
    });
  });

  describe('version', () => {
    it('defaults to 2', () => expect(validateBotConfig({ botId: 'b' }, { cloudHost }).version).toBe(2));
    it('accepts other positive integers', () => expect(validateBotConfig({ botId: 'b', version: 1 }, { cloudHost }).version).toBe(1));
    it.each([2.5, '2', 0, -2, NaN, null])('refuses %p', (version) => expectRule({ version }, 'version', 'integer'));
  });

  describe('customBaseUrl', () => {
    it.each([1, 2, 3, 4, 5])('accepts region r%i with and without trailing slash', (n) => {
      expect(validateBotConfig({ ...valid, customBaseUrl: `https://r${n}.cloud.example.com` }, { cloudHost }).customBaseUrl).toBe(`https://r${n}.cloud.example.com`);
      expect(validateBotConfig({ ...valid, customBaseUrl: `https://r${n}.cloud.example.com/` }, { cloudHost }).customBaseUrl).toBe(`https://r${n}.cloud.example.com`);
    });
    it.each([
      'https://r0.cloud.example.com',
      'https://r6.cloud.example.com',
      'https://r12.cloud.example.com',
      'http://r1.cloud.example.com',
      'https://cloud.example.com',
      'https://r1.cloud.example.com.evil.test',
      'https://r1.cloudXexample.com',
      'https://r1.other.example.com',
      'https://r1.cloud.example.com/path',
      'https://r1.cloud.example.com//',
      'https://r1.cloud.example.com:8443',
      'https://r1.cloud.example.com?x=1',
      'https://r1.cloud.example.com#x',
      'https://user@r1.cloud.example.com',
      ' https://r1.cloud.example.com',
      'https://r1.cloud.example.com\n',
      'r1.cloud.example.com',
    ])('refuses %s', (customBaseUrl) => expectRule({ customBaseUrl }, 'customBaseUrl', 'regionHost'));
    it('must be a string', () => expectRule({ customBaseUrl: 1 }, 'customBaseUrl', 'type'));
  });

  describe('enableSpeech', () => {
    it('defaults to false', () => expect(validateBotConfig({ botId: 'b' }, { cloudHost }).enableSpeech).toBe(false));
    it.each(['false', 0, 1, null])('refuses %p', (enableSpeech) => expectRule({ enableSpeech }, 'enableSpeech', 'type'));
  });

  describe.each(['closeButtonColor', 'statusBarColor'])('%s', (field) => {
    it.each(['#000000', '#ffFFff', '#00112233'])('accepts %s', (color) => expect(findConfigErrors({ ...valid, [field]: color }, { cloudHost })).toEqual([]));
    it.each(['000000', '#fff', '#12345', '#1234567', '#123456789', '#GGGGGG', 'red', '#ffffff ', ''])('refuses %j', (color) => expectRule({ [field]: color }, field, 'color'));
    it('must be a string', () => expectRule({ [field]: 0xffffff }, field, 'type'));
  });

  describe('deviceToken', () => {
    it('is optional', () => expect(findConfigErrors(valid, { cloudHost })).toEqual([]));
    it.each(['', ' ', '\n\t'])('refuses blank %j', (deviceToken) => expectRule({ deviceToken }, 'deviceToken', 'blank'));
    it('must be a string', () => expectRule({ deviceToken: 5 }, 'deviceToken', 'type'));
  });

  it('findConfigErrors reports one error per broken field', () => {
    const errors = findConfigErrors({ botId: '', version: 'x', statusBarColor: 'red', payload: { a: NaN } }, { cloudHost });
    expect(errors.map((e) => [e.field, e.rule])).toEqual([
      ['botId', 'blank'],
      ['payload', 'nonFiniteNumber'],
      ['version', 'integer'],
      ['statusBarColor', 'color'],
    ]);
    expect(errors.every((e) => e instanceof ValidationError && e.name === 'ValidationError')).toBe(true);
  });
});
