-- Allocates a tracking number for every number on one page, in one atomic step (SPEC §4).
-- All keys carry the partner's hash tag, so the script runs unchanged on Redis Cluster.
--
-- KEYS[1] session hash the request names (web: session:<sent id>, app: app:<trackingId>)
-- KEYS[2] session hash for a new web session (session:<new id>); equal to KEYS[1] for app and first requests
-- KEYS[3] pool sorted set: member = pool number, score = epoch ms from which the number is free
-- KEYS[4] bindings hash: pool number -> binding JSON (layout in @trackline/contracts binding.codec.ts)
-- KEYS[5] customer-seen stream
-- ARGV[1] now, epoch ms            ARGV[2] session ttl, ms         ARGV[3] hold-back, ms
-- ARGV[4] on_exhausted             ARGV[5] id for a new session    ARGV[6] binding context JSON
-- ARGV[7] customer marker ('' when the request names no customer)  ARGV[8] stream MAXLEN (approximate)
-- ARGV[9] k, then k event field/value strings; then m, then m numbers on the page (E.164)
--
-- Session hash fields: 'id' = session id, 'x' = epoch ms the session ends (sliding), 'c' = marker of
-- the last customer event, '+<E.164>' = the pool number bound for that number on the page.
-- Returns {'no_pool'} or {'ok', session id, pool number or '' per page number}; '' = no free
-- number under on_exhausted=original: the page keeps its own number.

local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local recycle = ARGV[4] == 'recycle'
local context = ARGV[6]
local marker = ARGV[7]
local eventCount = tonumber(ARGV[9])
local numbersAt = 10 + eventCount
local count = tonumber(ARGV[numbersAt])

if redis.call('EXISTS', KEYS[3]) == 0 then
  return { 'no_pool' }
end

local sessionKey = KEYS[1]
local session = {}
local sessionNumbers = 0
local flat = redis.call('HGETALL', sessionKey)
for i = 1, #flat, 2 do
  session[flat[i]] = flat[i + 1]
  if string.sub(flat[i], 1, 1) == '+' then sessionNumbers = sessionNumbers + 1 end
end
local sid = session['id']
-- The session's end is kept in the hash and judged on the request's `now`, so the rules follow the
-- time the service passes in; the key's PEXPIRE only frees the memory.
if sid and tonumber(session['x'] or '0') <= now then
  sid = nil
  if KEYS[1] == KEYS[2] then redis.call('DEL', KEYS[1]) end
end
local isNew = false
if not sid then
  -- No such session, or it ended: start a new one under the id the caller prepared.
  sessionKey = KEYS[2]
  sid = ARGV[5]
  session = {}
  sessionNumbers = 0
  isNew = true
end

local nowText = string.format('%.0f', now)
-- Free again once session_ttl has passed since the session's last request, plus the hold-back.
local releaseMs = now + ttl + tonumber(ARGV[3])
local releaseAt = string.format('%.0f', releaseMs)

-- A number bound now must rank after every number bound before it, even within the same
-- millisecond, or recycling in a burst would keep taking the same lowest-sorting number. A
-- thousandth of a millisecond above the current top keeps the order and changes no outcome.
local function bindScore()
  local top = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  local topScore = tonumber(top[2] or '0')
  if topScore >= releaseMs then return string.format('%.3f', topScore + 0.001) end
  return releaseAt
end
local ownerPrefix = '{"session_id":"' .. sid .. '","number_on_page":"'

-- A binding belongs to this session (for this number on the page, when given) if its fixed prefix says so.
local function heldBySession(number, onPage)
  local binding = redis.call('HGET', KEYS[4], number)
  if not binding then return nil end
  local prefix = onPage and (ownerPrefix .. onPage .. '","recycled":') or ownerPrefix
  if string.sub(binding, 1, #prefix) ~= prefix then return nil end
  return binding, #prefix
end

-- Sticky: the pool number this session already has for this number on the page, if still its own.
local function stickyNumber(onPage)
  local number = session[onPage]
  if not number or not redis.call('ZSCORE', KEYS[3], number) then return nil end
  local binding, prefixLength = heldBySession(number, onPage)
  if not binding then return nil end
  local recycled, boundAt = string.match(binding, '^(%a+),"bound_at":(%d+),', prefixLength + 1)
  if not recycled then return nil end
  return number, recycled, boundAt
end

local used = {}

-- Least recently used: the lowest score is the number free for the longest time. When none is
-- free, recycle takes the one whose session went quiet first, never one of this session's own.
local function chooseNumber()
  local window = count + sessionNumbers + 1
  local candidates = redis.call('ZRANGE', KEYS[3], 0, window - 1, 'WITHSCORES')
  for j = 1, #candidates, 2 do
    local number = candidates[j]
    if not used[number] then
      if tonumber(candidates[j + 1]) <= now then return number, 'false' end
      if not recycle then return nil end
      if not heldBySession(number, nil) then return number, 'true' end
    end
  end
  return nil
end

local result = { 'ok', sid }
for i = 1, count do
  local onPage = ARGV[numbersAt + i]
  local number, recycled, boundAt = stickyNumber(onPage)
  if not number then
    number, recycled = chooseNumber()
    boundAt = nowText
  end
  if number then
    used[number] = true
    redis.call('HSET', KEYS[4], number, ownerPrefix .. onPage .. '","recycled":' .. recycled .. ',"bound_at":' ..
      boundAt .. ',"seen_at":' .. nowText .. ',"context":' .. context .. '}')
    redis.call('ZADD', KEYS[3], bindScore(), number)
    if session[onPage] ~= number then
      if not session[onPage] then sessionNumbers = sessionNumbers + 1 end
      session[onPage] = number
      redis.call('HSET', sessionKey, onPage, number)
    end
    result[#result + 1] = number
  else
    if session[onPage] then
      session[onPage] = nil
      redis.call('HDEL', sessionKey, onPage)
    end
    result[#result + 1] = ''
  end
end

-- Sliding expiry: the session's numbers not shown on this page stay held as long as the session lives.
for field, number in pairs(session) do
  if string.sub(field, 1, 1) == '+' and not used[number] then
    if redis.call('ZSCORE', KEYS[3], number) and heldBySession(number, field) then
      redis.call('ZADD', KEYS[3], 'XX', releaseAt, number)
    else
      redis.call('HDEL', sessionKey, field)
    end
  end
end

if isNew then redis.call('HSET', sessionKey, 'id', sid) end

if marker ~= '' and session['c'] ~= marker then
  local args = { 'XADD', KEYS[5], 'MAXLEN', '~', ARGV[8], '*' }
  for j = 1, eventCount do args[#args + 1] = ARGV[9 + j] end
  redis.call(unpack(args))
  redis.call('HSET', sessionKey, 'c', marker)
end

redis.call('HSET', sessionKey, 'x', string.format('%.0f', now + ttl))
redis.call('PEXPIRE', sessionKey, ARGV[2])
return result
