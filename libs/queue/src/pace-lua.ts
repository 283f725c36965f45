/**
 * Lua shared by the Redis pacers (WhatsApp's SenderPacer, the push service's FcmPacer): time is read
 * from Redis' own clock, so replicas on hosts whose clocks differ still agree on a second.
 */

/** Sets the local `now` (milliseconds, Redis' clock). */
export const REDIS_NOW_LUA = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * A pace slowed down after the provider refused for throughput: KEYS[1] is the pace's hash, ARGV
 * factor and ms. Multiplies the slow-down factor in force (1 if none) by ARGV[1] for ARGV[2] ms
 * (fields `slow_until`, `factor`, which the pace scripts read); returns the new factor.
 */
export const SLOW_DOWN_LUA = `${REDIS_NOW_LUA}
local st = redis.call('HMGET', KEYS[1], 'slow_until', 'factor')
local factor = 1
if now < (tonumber(st[1]) or 0) then factor = tonumber(st[2]) or 1 end
factor = math.max(factor * tonumber(ARGV[1]), 0.001)
redis.call('HSET', KEYS[1], 'slow_until', now + tonumber(ARGV[2]), 'factor', factor)
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[2]) + 60000)
return tostring(factor)
`;
