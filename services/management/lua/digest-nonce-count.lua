-- Accepts a digest nonce count only when it is higher than every count seen before for the nonce,
-- so a replayed Authorization header fails on whichever replica it reaches.
-- KEYS[1] the nonce's counter key
-- ARGV[1] the request's nc as a decimal integer
-- ARGV[2] time to live of the counter in milliseconds (the rest of the nonce's lifetime)
local seen = tonumber(redis.call('GET', KEYS[1]) or '0')
local nc = tonumber(ARGV[1])
if nc == nil or nc <= seen then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
