-- Adds one process's pool telemetry of one partner-hour to `<T>:pool-stats:<hour>` (docs/redis-keys.md
-- "Pool telemetry"): what services/replacement/src/pools/pool-telemetry.ts counted from the allocation
-- script's replies since its last write, about once a second. Both keys carry the partner's hash tag.
--
-- KEYS[1] pool-stats hash of the hour (fields in @trackline/contracts pool-stats.codec.ts)
-- KEYS[2] pool sorted set: member = pool number, score = epoch ms from which the number is free
-- ARGV[1] sessions started   ARGV[2] bindings made   ARGV[3] of those, recycled (decimal text)
-- ARGV[4] '1' when a free number was bound (the held count may have risen), else '0'
-- ARGV[5] the request time (epoch ms, within the hour) of the last of those requests
local stats = KEYS[1]
local now = ARGV[5]
-- A field created here (its count equals what was added) is the hash's first of the hour, or the
-- hash was lost: the expiry is set then, a few times an hour.
local created = false
local function add(field, count)
  if count == '0' then return false end
  return redis.call('HINCRBY', stats, field, count) == tonumber(count)
end
if add('sessions', ARGV[1]) then created = true end
if add('issued', ARGV[2]) then created = true end
-- The hour's first recycling finds the whole pool held, which an hour that began with the pool
-- already full records nowhere else.
local firstRecycling = add('recycled', ARGV[3])
if firstRecycling then created = true end
if ARGV[4] == '1' or firstRecycling then
  local leased = redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf')
  if leased > tonumber(redis.call('HGET', stats, 'peak') or '0') then redis.call('HSET', stats, 'peak', leased) end
end
-- Until the end of the hour plus POOL_STATS_KEEP_HOURS (48, contracts' pool-stats.codec.ts), on
-- the requests' clock like every other rule of the allocation.
if created then
  local nowMs = tonumber(now)
  redis.call('PEXPIRE', stats, (math.floor(nowMs / 3600000) + 49) * 3600000 - nowMs)
end
return 1
