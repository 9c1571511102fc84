-- Allocates a tracking number for every number on one page, in one atomic step (docs/redis-keys.md
-- "Allocation"). All keys carry the partner's hash tag, so the script runs unchanged on Redis Cluster.
-- Every visitor request pays for what runs here, so: reads first, writes only for what changed,
-- several fields per command, and no work the caller can do (times arrive as strings: a
-- string.format costs more than a command; few tables and closures: each is an allocation).
--
-- KEYS[1] session hash: the one the request names (web: session:<sent id>, app: app:<trackingId>),
--         or for a first web request the new session's (session:<new id>)
-- KEYS[2] pool sorted set: member = pool number, score = epoch ms from which the number is free
-- KEYS[3] bindings hash: pool number -> binding JSON (layout in @trackline/contracts binding.codec.ts)
-- KEYS[4] customer-seen stream
-- KEYS[5] customers:sent hash: custnr -> marker of the values last appended to the stream
--         KEYS[4], KEYS[5] and ARGV[8..10] come only with a customer to check: without one the
--         service passes three keys and the numbers follow ARGV[7] (each key or value costs Redis
--         about as much as a command's argument, whether the script reads it or not)
-- ARGV (written by services/replacement/src/pools/allocation-request.ts, which says why it is laid
-- out so: a value only some requests read rides inside an argument split only by them)
-- ARGV[1] now, epoch ms            ARGV[2] session ttl, ms
-- ARGV[3] release time, epoch ms: now + session ttl + hold-back (a number is free again from then),
--         thousandths above it keeping the service's bindings of one millisecond in order
-- ARGV[4] session end, epoch ms: now + session ttl
-- ARGV[5] mode, two characters: '1' when KEYS[1] may exist (a sessionId was sent, or an app
--         visitor) or '0' for a first web request; then 'r' for on_exhausted=recycle, 'o' for original
-- ARGV[6] id for a new session; empty for a web request naming a session, whose new session (when
--         the named one has ended or is unknown) would have another key: the script then answers
--         an empty string, writing nothing, and the service calls again as for a first request
--                                  ARGV[7] binding context JSON
-- With a customer to check (five keys):
-- ARGV[8] custnr                   ARGV[9] customer marker
-- ARGV[10] the stream's MAXLEN (approximate), then the event's field/value strings, all joined by NUL
--         (no field can hold one: the edges refuse it)
-- ARGV[11..] the numbers on the page (E.164)
-- Without one (three keys): ARGV[8..] the numbers on the page
--
-- Session hash fields: 'id' = session id, 'x' = epoch ms the session ends (sliding), '+<E.164>' = the
-- pool number bound for that number on the page, 'k' = epoch ms until which the key is kept (written
-- with the PEXPIRE of a returning request; absent until one renews it).
-- Returns an empty string when ARGV[6] is empty and the named session has ended (nothing written),
-- false (a nil reply) when the partner has no pool, else one string of space-separated
-- fields: session id, bindings made, of those recycled, then the pool number or '' per page number
-- ('' = no free number under on_exhausted=original: the page keeps its own number; no field holds a
-- space: session ids are UUIDs the service makes, numbers are E.164). One string, not
-- a table: Redis converts a returned table field by field, probing it for error, status, double, map
-- and set markers first, which cost more than a command (docs/benchmarks.md). The two counts are the
-- pool telemetry's (services/replacement/src/pools/pool-telemetry.ts), which the service adds up and
-- writes once a second instead of in every request.

-- A Lua number passed to redis.call is formatted by Redis with snprintf("%.17g"), which costs
-- more than a command's other arguments together. Small counts (one number on a page, usually)
-- are sent as text instead; larger ones through the cheaper integer format.
local function integerArg(n)
  if n < 10 then return string.sub('0123456789', n + 1, n + 1) end
  return string.format('%d', n)
end

local nowText = ARGV[1]
local releaseAt = ARGV[3]
-- Whole-string comparisons: the mode is never split (a string.byte would cost more than the argument).
local mode = ARGV[5]
local context = ARGV[7]
local checksCustomer = #KEYS == 5
local numbersAt = checksCustomer and 10 or 7
local count = #ARGV - numbersAt

-- A first web request names a session id made for it just now: nothing to read.
local flat = (mode == '1r' or mode == '1o') and redis.call('HGETALL', KEYS[1]) or {}
-- Sized at once for a session of one or two page numbers (five named fields make room for eight;
-- each is false until read, and no field of a session hash is called 'room'), which spares Lua the
-- rehashes of a table grown from empty.
local session = {}
if #flat > 0 then
  session = { id = false, x = false, k = false, c = false, room = false }
  for i = 1, #flat, 2 do session[flat[i]] = flat[i + 1] end
end
-- Every other field is a page number's ('+<E.164>'; 'c' is left in sessions written before). Counted
-- by lookups, not by a string.byte per field: a call into a Lua library costs more than a lookup.
local keptUntil = session['k']
local sessionNumbers = #flat / 2 - (session['id'] and 1 or 0) - (session['x'] and 1 or 0)
  - (session['c'] and 1 or 0) - (keptUntil and 1 or 0)
local sid = session['id']
local sessionKey = KEYS[1]
-- The session's end is kept in the hash and judged on the request's `now`, so the rules follow the
-- time the service passes in; the key's PEXPIRE only frees the memory.
-- Compared as decimal text (no sign, no leading zero): the longer text is the larger number, and
-- texts of one length order as their digits do. tonumber (strtod) costs more than an argument of
-- the call, and only a request that binds a number needs `now` as a number.
local ends = session['x'] or '0'
if sid and (#ends < #nowText or (#ends == #nowText and ends <= nowText)) then sid = nil end
local isNew = not sid
if isNew then
  sid = ARGV[6]
  -- The named web session has ended or is unknown: its new one has a key the call did not get.
  if sid == '' then return '' end
end
-- Fields of an ended session left under the same key (app sessions) are removed before it is reused.
local clearOld = isNew and #flat > 0
if isNew then
  if #flat > 0 then session = {} end
  sessionNumbers = 0
end

local ownerPrefix = '{"session_id":"' .. sid .. '","number_on_page":"'
-- Pool number -> the binding it has after this request (also: taken by this request).
local used = {}

-- The binding of `number` if it belongs to this session (for this number on the page, when given),
-- with the length of the prefix that says so; nil otherwise. Plain finds: no substrings made. The
-- request's bindings and the owner prefix come as arguments: a function that captures a local of
-- the script gets an upvalue made on every call (this one's closure is its only allocation).
local function heldBySession(number, onPage, used, ownerPrefix)
  local binding = used[number] or redis.call('HGET', KEYS[3], number)
  if not binding then return nil end
  local prefix = onPage and (ownerPrefix .. onPage .. '","recycled":') or ownerPrefix
  if string.find(binding, prefix, 1, true) ~= 1 then return nil end
  return binding, #prefix
end

local recycle = mode == '1r' or mode == '0r'
-- The pool's free members (scored up to now), lowest score first, and the held members ranked after
-- them: each read once, the second only when no free one is left for this request. Scores are never
-- read: Redis formats each score of a reply with %.17g, which cost more than the second command.
local free, held

-- The answer's first page number, and the others each after a space: the first goes into the
-- return's own concatenation, one string less for a page of one number.
local firstAnswer, answer = '', ''
-- Lists of writes are made by a constructor with their first values, sized at once (a table grown
-- from empty is rehashed at each power of two). A new session's hash gets its id and end first.
local bindingWrites, newNumbers, sessionDrops
local sessionWrites = isNew and { 'id', sid, 'x', ARGV[4] } or nil
local recycledCount = 0
-- Session numbers this request shows (each once), to know whether any is left to slide.
local shown = 0
for i = 1, count do
  local onPage = ARGV[numbersAt + i]
  local number = session[onPage]
  local repeated = false
  if number then
    local binding, prefixLength = heldBySession(number, onPage, used, ownerPrefix)
    if binding and used[number] then
      -- The same number on the page again in this request: it keeps the number it just got.
      repeated = true
    elseif binding then
      -- Sticky: still this session's binding and still in the pool; the score moves in the same step.
      -- Only recycled and bound_at lie between the owner prefix and the context: the first
      -- ',"context":' after the prefix is the context's (a plain find; the match is for a rewrite).
      local _, tail = string.find(binding, ',"context":', prefixLength + 1, true)
      -- The slide moves the member's score to the release time, and fails when the number left the
      -- pool. ZADD XX only updates a member and CH counts a changed score; a score that already had
      -- that value (a second request within the millisecond) is confirmed by ZSCORE.
      if tail and (redis.call('ZADD', KEYS[2], 'XX', 'CH', releaseAt, number) == 1
          or redis.call('ZSCORE', KEYS[2], number) ~= false) then
        -- The binding carries the data of the session's latest request: rewritten only when it differs.
        if #binding ~= tail + #context + 1 or string.find(binding, context, tail + 1, true) ~= tail + 1 then
          local recycled, boundAt = string.match(binding, '^(%a+),"bound_at":(%d+),', prefixLength + 1)
          binding = ownerPrefix .. onPage .. '","recycled":' .. recycled .. ',"bound_at":' .. boundAt ..
            ',"context":' .. context .. '}'
          if bindingWrites then
            bindingWrites[#bindingWrites + 1] = number
            bindingWrites[#bindingWrites + 1] = binding
          else
            bindingWrites = { number, binding }
          end
        end
        used[number] = binding
      else
        number = nil
      end
    else
      number = nil
    end
  end
  if not number then
    -- Least recently used: the lowest score is the number free for the longest time. When none is
    -- free, recycle takes the one whose session went quiet first, never one of this session's own.
    -- One read serves every number of the page: it skips at most the page's numbers and the
    -- session's own. A session started by this request owns no binding but those it made here
    -- (`used`): its id is new, so it recycles without reading the candidate's binding. Written
    -- inline, not as a function: a closure and the upvalues it captures are made on every call.
    local recycled
    if not free then
      free = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', nowText, 'LIMIT', '0',
        integerArg(count + sessionNumbers + 1))
    end
    for j = 1, #free do
      if not used[free[j]] then
        number, recycled = free[j], 'false'
        break
      end
    end
    if not number then
      if not held then
        held = redis.call('ZRANGE', KEYS[2], integerArg(#free), integerArg(#free + count + sessionNumbers))
        if #free == 0 and #held == 0 then return false end -- an empty sorted set does not exist
      end
      for j = 1, recycle and #held or 0 do
        local candidate = held[j]
        if not used[candidate] and (isNew or not heldBySession(candidate, nil, used, ownerPrefix)) then
          number, recycled = candidate, 'true'
          break
        end
      end
    end
    if number then
      if recycled == 'true' then recycledCount = recycledCount + 1 end
      local binding = ownerPrefix .. onPage .. '","recycled":' .. recycled .. ',"bound_at":' .. nowText ..
        ',"context":' .. context .. '}'
      used[number] = binding
      if bindingWrites then
        bindingWrites[#bindingWrites + 1] = number
        bindingWrites[#bindingWrites + 1] = binding
      else
        bindingWrites = { number, binding }
      end
      if newNumbers then newNumbers[#newNumbers + 1] = number else newNumbers = { number } end
    end
  end
  if number then
    if not repeated then shown = shown + 1 end
    if session[onPage] ~= number then
      if not session[onPage] then sessionNumbers = sessionNumbers + 1 end
      session[onPage] = number
      if sessionWrites then
        sessionWrites[#sessionWrites + 1] = onPage
        sessionWrites[#sessionWrites + 1] = number
      else
        sessionWrites = { onPage, number }
      end
    end
    if i == 1 then firstAnswer = number else answer = answer .. ' ' .. number end
  else
    if session[onPage] then
      session[onPage] = nil
      sessionNumbers = sessionNumbers - 1
      sessionDrops = sessionDrops or {}
      sessionDrops[#sessionDrops + 1] = onPage
    end
    if i > 1 then answer = answer .. ' ' end
  end
end

-- A number bound now must rank after every number bound before it, even within the same
-- millisecond, or recycling in a burst could take a number it has just recycled again. The service
-- passes the release time already that order's thousandths above the millisecond (ARGV[3]) and
-- reserves one per number on the page, so a page's further numbers go a thousandth apart; the
-- arithmetic and formatting run only for them.
if newNumbers then
  local scores = { releaseAt, newNumbers[1] }
  if #newNumbers > 1 then
    local score = tonumber(releaseAt)
    for j = 2, #newNumbers do
      scores[#scores + 1] = string.format('%.3f', score + (j - 1) / 1000)
      scores[#scores + 1] = newNumbers[j]
    end
  end
  redis.call('ZADD', KEYS[2], unpack(scores))
end

if bindingWrites then redis.call('HSET', KEYS[3], unpack(bindingWrites)) end

-- Sliding expiry: the session's numbers not shown on this page stay held as long as the session lives.
if sessionNumbers > shown then
  for field, number in pairs(session) do
    if string.byte(field, 1) == 43 and not used[number] then
      if not (heldBySession(number, field, used, ownerPrefix)
          and (redis.call('ZADD', KEYS[2], 'XX', 'CH', releaseAt, number) == 1
            or redis.call('ZSCORE', KEYS[2], number) ~= false)) then
        sessionDrops = sessionDrops or {}
        sessionDrops[#sessionDrops + 1] = field
      end
    end
  end
end

if clearOld then redis.call('DEL', sessionKey) end
if sessionDrops then redis.call('HDEL', sessionKey, unpack(sessionDrops)) end
-- The key's expiry only frees memory (the session's end is 'x'), so a returning request does not
-- renew it while the key is kept past the session's new end: a new session's key lives one session
-- ttl, and when a request finds it would end before the session does, it is kept two from then
-- ('k'). A PEXPIRE costs about as much as the HSET of the session's end (docs/benchmarks.md).
-- Compared as decimal text, like the session's end above.
local sessionEnd = ARGV[4]
local keepFor
if not isNew and (not keptUntil or #keptUntil < #sessionEnd
    or (#keptUntil == #sessionEnd and keptUntil < sessionEnd)) then
  local ttl = tonumber(ARGV[2])
  keepFor = string.format('%d', 2 * ttl)
  sessionWrites = sessionWrites or {}
  sessionWrites[#sessionWrites + 1] = 'k'
  sessionWrites[#sessionWrites + 1] = string.format('%d', tonumber(nowText) + 2 * ttl)
end
if isNew then
  redis.call('HSET', sessionKey, unpack(sessionWrites))
elseif sessionWrites then
  sessionWrites[#sessionWrites + 1] = 'x'
  sessionWrites[#sessionWrites + 1] = sessionEnd
  redis.call('HSET', sessionKey, unpack(sessionWrites))
else
  redis.call('HSET', sessionKey, 'x', sessionEnd)
end
if isNew then
  redis.call('PEXPIRE', sessionKey, ARGV[2])
elseif keepFor then
  redis.call('PEXPIRE', sessionKey, keepFor)
end

-- Events only on change: the partner's record of what was last sent for this custnr decides.
local custnr = checksCustomer and ARGV[8]
if custnr and redis.call('HGET', KEYS[5], custnr) ~= ARGV[9] then
  local fields = ARGV[10]
  local from = string.find(fields, '\0', 1, true)
  local args = { 'XADD', KEYS[4], 'MAXLEN', '~', string.sub(fields, 1, from - 1), '*' }
  from = from + 1
  while true do
    local at = string.find(fields, '\0', from, true)
    if not at then break end
    args[#args + 1] = string.sub(fields, from, at - 1)
    from = at + 1
  end
  args[#args + 1] = string.sub(fields, from)
  redis.call(unpack(args))
  redis.call('HSET', KEYS[5], custnr, ARGV[9])
end
if not newNumbers then return sid .. ' 0 0 ' .. firstAnswer .. answer end
return sid .. ' ' .. integerArg(#newNumbers) .. ' ' .. integerArg(recycledCount) .. ' ' .. firstAnswer .. answer
