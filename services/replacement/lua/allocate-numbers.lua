-- Allocates a tracking number for every number on one page, in one atomic step (docs/numbers-and-sources.md,
-- docs/redis-keys.md "Allocation"). All keys carry the partner's hash tag, so the script runs unchanged
-- on Redis Cluster. Every command is paid for by every visitor request: reads first, writes only for
-- what changed, several fields per command.
--
-- KEYS[1] session hash the request names (web: session:<sent id>, app: app:<trackingId>)
-- KEYS[2] session hash for a new web session (session:<new id>); equal to KEYS[1] for app and first requests
-- KEYS[3] pool sorted set: member = pool number, score = epoch ms from which the number is free
-- KEYS[4] bindings hash: pool number -> binding JSON (layout in @trackline/contracts binding.codec.ts)
-- KEYS[5] customer-seen stream
-- KEYS[6] customers:sent hash: custnr -> marker of the values last appended to the stream
-- ARGV[1] now, epoch ms            ARGV[2] session ttl, ms         ARGV[3] hold-back, ms
-- ARGV[4] on_exhausted             ARGV[5] id for a new session    ARGV[6] binding context JSON
-- ARGV[7] custnr ('' when the request names no customer)           ARGV[8] customer marker
-- ARGV[9] stream MAXLEN (approximate)
-- ARGV[10] the event's field/value strings joined by NUL (no field can hold one: the edges refuse it)
-- ARGV[11] '1' when KEYS[1] may exist (a sessionId was sent, or an app visitor), '0' for a first web request
-- ARGV[12..] the numbers on the page (E.164)
--
-- Session hash fields: 'id' = session id, 'x' = epoch ms the session ends (sliding), '+<E.164>' = the
-- pool number bound for that number on the page.
-- Returns {'no_pool'} or {'ok', session id, pool number or '' per page number}; '' = no free
-- number under on_exhausted=original: the page keeps its own number.

local now = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
local recycle = ARGV[4] == 'recycle'
local context = ARGV[6]
local custnr = ARGV[7]
local numbersAt = 11
local count = #ARGV - numbersAt

-- A first web request names a session id made for it just now: nothing to read.
local flat = ARGV[11] == '1' and redis.call('HGETALL', KEYS[1]) or {}
local session = {}
local sessionNumbers = 0
for i = 1, #flat, 2 do
  session[flat[i]] = flat[i + 1]
  if string.byte(flat[i], 1) == 43 then sessionNumbers = sessionNumbers + 1 end -- '+'
end
local sid = session['id']
local sessionKey = KEYS[1]
-- The session's end is kept in the hash and judged on the request's `now`, so the rules follow the
-- time the service passes in; the key's PEXPIRE only frees the memory.
if sid and tonumber(session['x'] or '0') <= now then sid = nil end
local isNew = not sid
-- Fields of an ended session left under the same key (app sessions) are removed before it is reused.
local clearOld = isNew and #flat > 0 and KEYS[1] == KEYS[2]
if isNew then
  sid = ARGV[5]
  sessionKey = KEYS[2]
  session = {}
  sessionNumbers = 0
end

local nowText = string.format('%.0f', now)
-- Free again once session_ttl has passed since the session's last request, plus the hold-back.
local releaseMs = now + ttl + tonumber(ARGV[3])
local releaseAt = string.format('%.0f', releaseMs)
local ownerPrefix = '{"session_id":"' .. sid .. '","number_on_page":"'
local contextTail = ',"context":' .. context .. '}'

local function bindingOf(onPage, recycled, boundAt)
  return ownerPrefix .. onPage .. '","recycled":' .. recycled .. ',"bound_at":' .. boundAt .. contextTail
end

local used = {}
-- Bindings this request writes, by pool number: a number repeated on the page finds its binding here.
local written = {}

-- A binding belongs to this session (for this number on the page, when given) if its fixed prefix says so.
local function heldBySession(number, onPage)
  local binding = written[number] or redis.call('HGET', KEYS[4], number)
  if not binding then return nil end
  local prefix = onPage and (ownerPrefix .. onPage .. '","recycled":') or ownerPrefix
  if string.sub(binding, 1, #prefix) ~= prefix then return nil end
  return binding, #prefix
end

-- Moves a member's score to the new release time; false when the number left the pool. ZADD XX
-- only updates a member and CH counts a changed score; a score that already had that value (a
-- second request within the millisecond) is confirmed by ZSCORE.
local function extend(number)
  return redis.call('ZADD', KEYS[3], 'XX', 'CH', releaseAt, number) == 1
    or redis.call('ZSCORE', KEYS[3], number) ~= false
end

-- Sticky: the pool number this session already has for this number on the page, if its binding is
-- still this session's and the number is still in the pool; its score moves in the same step.
-- Returns the number, its stored binding and the binding as it should now read, or nil.
local function renewSticky(onPage)
  local number = session[onPage]
  if not number then return nil end
  if written[number] then return number, written[number], written[number] end
  local binding, prefixLength = heldBySession(number, onPage)
  if not binding then return nil end
  local recycled, boundAt = string.match(binding, '^(%a+),"bound_at":(%d+),', prefixLength + 1)
  if not recycled or not extend(number) then return nil end
  return number, binding, bindingOf(onPage, recycled, boundAt)
end

local candidates = nil

-- Least recently used: the lowest score is the number free for the longest time. When none is
-- free, recycle takes the one whose session went quiet first, never one of this session's own.
-- One read serves every number of the page: it skips at most the page's numbers and the session's own.
local function chooseNumber()
  if not candidates then
    candidates = redis.call('ZRANGE', KEYS[3], 0, count + sessionNumbers, 'WITHSCORES')
  end
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
local bindingWrites = {}
local newNumbers = {}
local sessionWrites = {}
local sessionDrops = {}
for i = 1, count do
  local onPage = ARGV[numbersAt + i]
  local number, stored, binding = renewSticky(onPage)
  if number then
    if binding ~= stored then
      written[number] = binding
      bindingWrites[#bindingWrites + 1] = number
      bindingWrites[#bindingWrites + 1] = binding
    end
  else
    local recycled
    number, recycled = chooseNumber()
    if #candidates == 0 then return { 'no_pool' } end -- an empty sorted set does not exist
    if number then
      written[number] = bindingOf(onPage, recycled, nowText)
      bindingWrites[#bindingWrites + 1] = number
      bindingWrites[#bindingWrites + 1] = written[number]
      newNumbers[#newNumbers + 1] = number
    end
  end
  if number then
    used[number] = true
    if session[onPage] ~= number then
      if not session[onPage] then sessionNumbers = sessionNumbers + 1 end
      session[onPage] = number
      sessionWrites[#sessionWrites + 1] = onPage
      sessionWrites[#sessionWrites + 1] = number
    end
    result[#result + 1] = number
  else
    if session[onPage] then
      session[onPage] = nil
      sessionDrops[#sessionDrops + 1] = onPage
    end
    result[#result + 1] = ''
  end
end

-- A number bound now must rank after every number bound before it, even within the same
-- millisecond, or recycling in a burst would keep taking the same lowest-sorting number. A
-- thousandth of a millisecond above the current top keeps the order and changes no outcome.
if #newNumbers > 0 then
  local top = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')
  local score = tonumber(top[2] or '0')
  local scores = {}
  for j = 1, #newNumbers do
    if score >= releaseMs then score = score + 0.001 else score = releaseMs end
    scores[#scores + 1] = string.format('%.3f', score)
    scores[#scores + 1] = newNumbers[j]
  end
  redis.call('ZADD', KEYS[3], unpack(scores))
end
if #bindingWrites > 0 then redis.call('HSET', KEYS[4], unpack(bindingWrites)) end

-- Sliding expiry: the session's numbers not shown on this page stay held as long as the session lives.
for field, number in pairs(session) do
  if string.byte(field, 1) == 43 and not used[number] then
    if not (heldBySession(number, field) and extend(number)) then sessionDrops[#sessionDrops + 1] = field end
  end
end

if clearOld then redis.call('DEL', sessionKey) end
if #sessionDrops > 0 then redis.call('HDEL', sessionKey, unpack(sessionDrops)) end
if isNew then
  sessionWrites[#sessionWrites + 1] = 'id'
  sessionWrites[#sessionWrites + 1] = sid
end
sessionWrites[#sessionWrites + 1] = 'x'
sessionWrites[#sessionWrites + 1] = string.format('%.0f', now + ttl)
redis.call('HSET', sessionKey, unpack(sessionWrites))
redis.call('PEXPIRE', sessionKey, ARGV[2])

-- Events only on change: the partner's record of what was last sent for this custnr decides.
if custnr ~= '' and redis.call('HGET', KEYS[6], custnr) ~= ARGV[8] then
  local args = { 'XADD', KEYS[5], 'MAXLEN', '~', ARGV[9], '*' }
  local fields, from = ARGV[10], 1
  while true do
    local at = string.find(fields, '\0', from, true)
    if not at then break end
    args[#args + 1] = string.sub(fields, from, at - 1)
    from = at + 1
  end
  args[#args + 1] = string.sub(fields, from)
  redis.call(unpack(args))
  redis.call('HSET', KEYS[6], custnr, ARGV[8])
end
return result
