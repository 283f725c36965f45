/**
 * The Lua of SenderPacer, on Redis' own clock. KEYS of one sender number, all under its hash tag:
 * [1] `whatsapp-pace:{<phone-number-id>}` (a hash: next free slot, reservations and go's of their
 * second, sends counted in the current second, slow-down), [2] `…:held` (a sorted set: job id → its
 * reserved time), [3] `…:sending` (a sorted set: sends in flight → when they stop counting).
 */

import { REDIS_NOW_LUA as NOW } from '@platform/queue';

/**
 * Defines `slowFactor(st)`: the share of its rate a number may use now after a 130429, from the hash's
 * `slow_at` (when the rate was last lowered), `factor` (the share set then) and `slow_step` (ms). The share
 * doubles every `slow_step` ms without a new 130429 until it is 1 again: it comes back in steps (a quarter,
 * a half, all of it), not all at once, so a number whose real throughput is lower is not flooded again.
 */
const SLOW_FACTOR_LUA = `
local function slowFactor(slowAt, factor, step)
  slowAt, factor, step = tonumber(slowAt), tonumber(factor), tonumber(step)
  if not slowAt or not factor or not step or factor >= 1 then return 1 end
  local k = math.floor((now - slowAt) / step)
  if k < 0 then k = 0 end
  if k >= 20 then return 1 end
  return math.min(1, factor * 2 ^ k)
end
`;

/**
 * A slot of the current second counts as missed this long after its time while fewer jobs than the slots
 * due by then have gone in the second: their jobs, waiting in the delayed set, are late (a job waiting
 * there comes back DELAYED_LEAD_MS before its slot, and is counted among its second's go's at once).
 */
export const MISSED_AFTER_MS = 50;

/**
 * One call for what a worker's jobs ask of one number in one batch window. ARGV: rate, edge margin ms,
 * in-flight ms, hold ms, room, number of landed sends, number of released permits, number of sends to
 * take, then the landed sends' ids, the released permits' ids, the ids of the sends to take, and the ids
 * of the jobs to reserve for. Returns one number per send taken and per job reserved, in that order: 0 to
 * go now, else the milliseconds to wait; then the current second's count and the rate in force; then,
 * when jobs were reserved for, one flag per reservation: 1 when its go carries a counted send (a permit,
 * member `r:<job id>` of KEYS[3]), else 0.
 *
 * A reservation whose slot is at most `hold` ms ahead, for at most `room` jobs of the call, is answered
 * negative (minus the wait): that job waits in its worker's memory and goes at its slot without asking
 * again, so it is not kept in KEYS[2] and costs no delayed-set round trip. Its slot is counted like any
 * other (`rn`), and it is counted among its second's go's at once (`gn`, or `nn` for the next second),
 * so a late job woken from the delayed set does not take its place.
 *
 * Permits: a job let go now, or waiting in memory for a slot of the current second, has its send counted
 * in this second at once (while the second has counted fewer than the rate), as if it had taken it: its
 * worker then sends without asking again. It is in KEYS[3] like a send in flight from then on, so if it
 * is sent in a later second it is counted there too (it is in flight when that second begins). A permit
 * given back unused (`released`: the job did not send) no longer counts in the current second if it was
 * counted there, since it never reached Meta.
 *
 * Sends: a second's count (csec, cn) starts with the sends in flight when it began (entries of KEYS[3]
 * not yet expired then), so a send still in flight at a second's start is in that second's count even
 * if its answer comes back in the second's first call. A send is taken while its second has counted
 * fewer than the rate.
 *
 * Reservations: `rate` slots a second, laid out evenly over its first `1000 - margin` ms. A job whose
 * slot is ahead waits and asks again when it wakes; it then goes if its slot's second has begun and,
 * when it woke late, if that second has let fewer than `rate` jobs go, else it gets a new slot.
 *
 * Missed places: a new job (not back from the delayed set) that would wait there goes now instead
 * while the current second has let fewer jobs go than its slots due MISSED_AFTER_MS ago. Those slots'
 * jobs are late: back from the delayed set behind every job queued before them (BullMQ's wait list is
 * first in, first out), which takes seconds when a burst of thousands is queued at once. Without this,
 * each such second would go unused while its jobs waited; with it, a late job finds its second full and
 * takes a new slot.
 *
 * Each call sends at most one ZADD, one ZREM and one ZMSCORE per key, whatever the number of asks.
 */
export const PACE_SCRIPT = `${NOW}${SLOW_FACTOR_LUA}
local sec = math.floor(now / 1000)
local rate, margin, inFlightMs = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local holdMs, room = tonumber(ARGV[4]), tonumber(ARGV[5])
local nLanded, nReleased, nTake = tonumber(ARGV[6]), tonumber(ARGV[7]), tonumber(ARGV[8])
local first = 8
local nReserve = #ARGV - first - nLanded - nReleased - nTake
local st = redis.call('HMGET', KEYS[1], 'csec', 'cn', 'next', 'rsec', 'rn', 'gsec', 'gn', 'slow_at', 'factor', 'slow_step', 'nsec', 'nn')
local eff = rate
local share = slowFactor(st[8], st[9], st[10])
if share < 1 then eff = math.max(1, math.floor(rate * share)) end
local out = {}
local permits = {}
local keepState = 60000
-- KEYS[3]'s members to add (score, member, ...) and to remove, each sent as one command at the end
local adds = {}
local removes = {}

local cn = tonumber(st[2]) or 0
if tonumber(st[1]) ~= sec then cn = redis.call('ZCOUNT', KEYS[3], '(' .. (sec * 1000), '+inf') end
for i = 1, nLanded do removes[#removes + 1] = ARGV[first + i] end
if nReleased > 0 then
  local released = {}
  for i = 1, nReleased do released[i] = ARGV[first + nLanded + i] end
  local scores = redis.call('ZMSCORE', KEYS[3], unpack(released))
  for i = 1, nReleased do
    -- counted in this second (at its start or since) and never sent: the second gets its place back
    local score = tonumber(scores[i])
    if score and score > sec * 1000 and cn > 0 then cn = cn - 1 end
    removes[#removes + 1] = released[i]
  end
end
local function count(expires, member)
  cn = cn + 1
  adds[#adds + 1] = expires
  adds[#adds + 1] = member
end
for i = 1, nTake do
  if cn >= eff then
    out[#out + 1] = (sec + 1) * 1000 - now
  else
    count(now + inFlightMs, ARGV[first + nLanded + nReleased + i])
    out[#out + 1] = 0
  end
end

local fields = {}
if nReserve > 0 then
  local usable = 1000 - margin
  local nextAt = tonumber(st[3]) or 0
  local rsec, rn = tonumber(st[4]) or -1, tonumber(st[5]) or 0
  local gsec, gn = tonumber(st[6]) or -1, tonumber(st[7]) or 0
  -- nsec, nn: jobs waiting in memory for a slot of the next second (they go then without asking again)
  local nsec, nn = tonumber(st[11]) or -1, tonumber(st[12]) or 0
  if gsec ~= sec then
    gsec, gn = sec, 0
    if nsec == sec then gn = nn end
  end
  if nsec < sec + 1 then nsec, nn = sec + 1, 0 end
  -- A job that goes in this second gets its send counted now if the second has room (a permit).
  local function permit(i, job, at)
    if cn < eff then
      count(at + inFlightMs, 'r:' .. job)
      permits[i] = 1
    end
  end
  -- A job that waits in memory is counted among its slot's second's go's now: a late job woken from the
  -- delayed set then finds that second full instead of going too and being refused at its count.
  local function inMemory(i, job, at)
    if math.floor(at / 1000) <= sec then
      gn = gn + 1
      permit(i, job, at)
    else
      nn = nn + 1
    end
    room = room - 1
    return math.min(-1, now - at)
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now - 60000)
  local jobs = {}
  for i = 1, nReserve do
    jobs[i] = ARGV[first + nLanded + nReleased + nTake + i]
    permits[i] = 0
  end
  local heldAt = redis.call('ZMSCORE', KEYS[2], unpack(jobs))
  local unheld = {}
  local holds = {}
  local function reserve(i, job)
    local held = tonumber(heldAt[i])
    if held then
      if now < math.floor(held / 1000) * 1000 then
        if room > 0 and held - now <= holdMs then
          unheld[#unheld + 1] = job
          return inMemory(i, job, held)
        end
        return held - now
      end
      unheld[#unheld + 1] = job
      -- on time, or late but this second still has room (a slot left unused by a late job is not lost)
      if now < sec * 1000 + usable and gn < eff then
        gn = gn + 1
        permit(i, job, now)
        return 0
      end
    end
    local at = math.max(nextAt, now)
    local s = math.floor(at / 1000)
    if s ~= rsec then rsec, rn = s, 0 end
    if at - s * 1000 >= usable or rn >= eff then
      s = s + 1
      at = s * 1000
      rsec, rn = s, 0
    end
    rn = rn + 1
    nextAt = at + usable / eff
    if at <= now and gn < eff then
      gn = gn + 1
      permit(i, job, now)
      return 0
    end
    if at <= now then
      -- this second's go's are used up (a slow-down began): the next second
      s = sec + 1
      at = s * 1000
      rsec, rn = s, 1
      nextAt = at + usable / eff
    end
    if room > 0 and at - now <= holdMs then return inMemory(i, job, at) end
    holds[#holds + 1] = at
    holds[#holds + 1] = job
    return at - now
  end
  -- this second's slots due MISSED_AFTER_MS ago (slots before the pointer entered the second count too:
  -- unused then, they may be used now)
  local elapsed = now - sec * 1000
  local due = 0
  if elapsed >= ${MISSED_AFTER_MS} and elapsed < usable then due = math.min(eff, math.floor((elapsed - ${MISSED_AFTER_MS}) * eff / usable) + 1) end
  -- (a job back from the delayed set keeps to its own slot, below)
  local function fillsMissed(i, job)
    if tonumber(heldAt[i]) then return false end
    local at = math.max(nextAt, now)
    if at <= now or (room > 0 and at - now <= holdMs) or gn >= due then return false end
    gn = gn + 1
    permit(i, job, now)
    return true
  end
  for i = 1, nReserve do out[#out + 1] = fillsMissed(i, jobs[i]) and 0 or reserve(i, jobs[i]) end
  if #unheld > 0 then redis.call('ZREM', KEYS[2], unpack(unheld)) end
  if #holds > 0 then
    redis.call('ZADD', KEYS[2], unpack(holds))
    redis.call('PEXPIRE', KEYS[2], math.floor(nextAt - now) + 60000)
  end
  for _, v in ipairs({'next', nextAt, 'rsec', rsec, 'rn', rn, 'gsec', gsec, 'gn', gn, 'nsec', nsec, 'nn', nn}) do fields[#fields + 1] = v end
  keepState = math.max(keepState, math.floor(nextAt - now) + 60000)
end

if #removes > 0 or #adds > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now) end
if #removes > 0 then redis.call('ZREM', KEYS[3], unpack(removes)) end
if #adds > 0 then
  redis.call('ZADD', KEYS[3], unpack(adds))
  keepState = math.max(keepState, inFlightMs + 60000)
  redis.call('PEXPIRE', KEYS[3], inFlightMs + 60000)
end
out[#out + 1] = cn
out[#out + 1] = eff
for i = 1, nReserve do out[#out + 1] = permits[i] end
fields[#fields + 1] = 'csec'; fields[#fields + 1] = sec
fields[#fields + 1] = 'cn'; fields[#fields + 1] = cn
redis.call('HSET', KEYS[1], unpack(fields))
-- kept a minute past its last use, its last slot and a slow-down's recovery (one command, not PTTL then PEXPIRE)
keepState = math.max(keepState, (tonumber(st[3]) or 0) - now + 60000)
if share < 1 then
  keepState = math.max(keepState, tonumber(st[8]) + tonumber(st[10]) * math.ceil(math.log(1 / tonumber(st[9])) / math.log(2)) + 60000 - now)
end
redis.call('PEXPIRE', KEYS[1], math.floor(keepState))
return out
`;

/**
 * After a 130429. ARGV: factor, step ms, settle ms. Multiplies the share of the rate in force now (1 if
 * none, else what is left of an earlier slow-down's recovery) by ARGV[1]; the share then doubles every
 * ARGV[2] ms without a new 130429. A 130429 within ARGV[3] ms of the last lowering changes nothing: the
 * sends in flight then were sent at the earlier rate, and each answering 130429 must not halve it again
 * (twenty of them would leave a millionth of the rate). Returns the share in force.
 */
export const SLOW_DOWN_SCRIPT = `${NOW}${SLOW_FACTOR_LUA}
local st = redis.call('HMGET', KEYS[1], 'slow_at', 'factor', 'slow_step')
local share = slowFactor(st[1], st[2], st[3])
local step, settle = tonumber(ARGV[2]), tonumber(ARGV[3])
if share < 1 and now - tonumber(st[1]) < settle then return tostring(share) end
share = math.max(share * tonumber(ARGV[1]), 0.001)
redis.call('HSET', KEYS[1], 'slow_at', now, 'factor', share, 'slow_step', step)
-- kept until the share is back to 1 (and a minute more)
local keep = step * math.ceil(math.log(1 / share) / math.log(2)) + 60000
if redis.call('PTTL', KEYS[1]) < keep then redis.call('PEXPIRE', KEYS[1], keep) end
return tostring(share)
`;

/** The share of its rate the number may use now (1 unless a 130429's slow-down is still recovering). */
export const SHARE_SCRIPT = `${NOW}${SLOW_FACTOR_LUA}
local st = redis.call('HMGET', KEYS[1], 'slow_at', 'factor', 'slow_step')
return tostring(slowFactor(st[1], st[2], st[3]))
`;
