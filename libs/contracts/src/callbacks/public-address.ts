import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { NonPublicAddressError } from './non-public-address.error.js';
import { UnresolvableHostError } from './unresolvable-host.error.js';

/** Addresses a callback must never reach: the host's own, its networks', and anything not globally routed. */
const NON_PUBLIC = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  NON_PUBLIC.addSubnet(net, bits, 'ipv6');

/** True when `ip` (v4 or v6 literal) is a globally routed unicast address. IPv4-mapped v6 is judged as its v4. */
export function isPublicAddress(ip: string): boolean {
  const family = isIP(ip);
  if (family === 4) return !NON_PUBLIC.check(ip, 'ipv4');
  if (family !== 6) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip) ?? /^::(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return isPublicAddress(mapped[1]);
  if (/^::ffff:/i.test(ip)) return false; // mapped, written in hex: not worth decoding
  return !NON_PUBLIC.check(ip, 'ipv6');
}

export type LookupAll = (host: string) => Promise<LookupAddress[]>;

const systemLookup: LookupAll = (host) => new Promise((resolve, reject) => dnsLookup(host, { all: true, verbatim: true }, (err, addresses) => (err ? reject(err) : resolve(addresses))));

/** Strips the brackets of an IPv6 URL host. */
function bare(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

/**
 * The addresses `hostname` resolves to, all of them public unless `allowPrivate`; throws
 * NonPublicAddressError when any is not (one private answer is enough for a rebinding attack), and
 * UnresolvableHostError when the name does not resolve.
 */
export async function resolvePublicAddresses(hostname: string, allowPrivate: boolean, lookupAll: LookupAll = systemLookup): Promise<LookupAddress[]> {
  const host = bare(hostname);
  const family = isIP(host);
  let addresses: LookupAddress[];
  if (family) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await lookupAll(host);
    } catch (err) {
      throw new UnresolvableHostError(`${host} does not resolve (${(err as { code?: string }).code ?? (err as Error).message})`);
    }
    if (addresses.length === 0) throw new UnresolvableHostError(`${host} does not resolve`);
  }
  if (!allowPrivate) {
    const refused = addresses.find((a) => !isPublicAddress(a.address));
    if (refused) throw new NonPublicAddressError(`${host} resolves to ${refused.address}, which is not a public address`);
  }
  return addresses;
}

/**
 * A `lookup` for node:http(s) requests that connects only to vetted addresses: the check and the
 * connection use the same answer, so a name that changes between them (DNS rebinding) cannot slip through.
 */
export function publicOnlyLookup(allowPrivate: boolean, lookupAll: LookupAll = systemLookup) {
  return (hostname: string, options: { all?: boolean }, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void): void => {
    resolvePublicAddresses(hostname, allowPrivate, lookupAll).then(
      (addresses) => (options.all ? callback(null, addresses) : callback(null, addresses[0].address, addresses[0].family)),
      (err: Error) => callback(err as NodeJS.ErrnoException, ''),
    );
  };
}
