-- Accepts a digest nonce count only when the nonce names the current Redis epoch and the count is
-- higher than every count seen before for the nonce, so a replayed Authorization header fails on
-- whichever replica it reaches — also after Redis lost its data: the epoch is created anew when
-- missing, and a nonce of another epoch is stale (its counters may be gone).
-- KEYS[1] the epoch, KEYS[2] the nonce's counter (one hash tag: both on one node)
-- ARGV[1] the nonce's epoch, ARGV[2] the request's nc as a decimal integer,
-- ARGV[3] time to live of the counter in milliseconds (the rest of the nonce's lifetime),
-- ARGV[4] a new random epoch, used only when none exists
-- Returns { 1 accepted | 0 replayed | -1 stale epoch, the current epoch }
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  redis.call('SET', KEYS[1], ARGV[4])
  epoch = ARGV[4]
end
if epoch ~= ARGV[1] then
  return { -1, epoch }
end
local seen = tonumber(redis.call('GET', KEYS[2]) or '0')
local nc = tonumber(ARGV[2])
if nc == nil or nc <= seen then
  return { 0, epoch }
end
redis.call('SET', KEYS[2], ARGV[2], 'PX', ARGV[3])
return { 1, epoch }
