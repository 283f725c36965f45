import { NonPublicAddressError } from './non-public-address.error.js';
import { isPublicAddress, publicOnlyLookup, resolvePublicAddresses } from './public-address.js';
import { UnresolvableHostError } from './unresolvable-host.error.js';

describe('postback address checks', () => {
  it.each(['93.184.216.34', '8.8.8.8', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });

  it.each([
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '198.18.0.1',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    'not-an-ip',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  const dns = (answers: Record<string, string[]>) => async (host: string) => {
    if (!answers[host]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return answers[host].map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

  it('refuses a name when any of its addresses is not public (a rebinding answer mixes both)', async () => {
    const lookup = dns({ 'hooks.example.com': ['93.184.216.34'], 'mixed.example.com': ['93.184.216.34', '10.0.0.7'] });
    await expect(resolvePublicAddresses('hooks.example.com', false, lookup)).resolves.toEqual([{ address: '93.184.216.34', family: 4 }]);
    await expect(resolvePublicAddresses('mixed.example.com', false, lookup)).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(resolvePublicAddresses('[::1]', false, lookup)).rejects.toBeInstanceOf(NonPublicAddressError);
    await expect(resolvePublicAddresses('gone.example.com', false, lookup)).rejects.toBeInstanceOf(UnresolvableHostError);
  });

  it('allows non-public addresses only when told to', async () => {
    await expect(resolvePublicAddresses('127.0.0.1', true)).resolves.toEqual([{ address: '127.0.0.1', family: 4 }]);
  });

  it('the connection lookup answers only vetted addresses, resolving once per connection', async () => {
    let calls = 0;
    const rebinding = async () => [{ address: calls++ === 0 ? '93.184.216.34' : '127.0.0.1', family: 4 }];
    const lookup = publicOnlyLookup(false, rebinding);
    const ask = () => new Promise<[Error | null, unknown]>((resolve) => lookup('evil.example.com', { all: true }, (err, address) => resolve([err, address])));
    expect(await ask()).toEqual([null, [{ address: '93.184.216.34', family: 4 }]]);
    const [err] = await ask();
    expect(err).toBeInstanceOf(NonPublicAddressError);
  });
});
