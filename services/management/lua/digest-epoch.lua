-- The current digest epoch, created when missing (Redis restarted empty or was flushed).
-- KEYS[1] the epoch; ARGV[1] a new random epoch, used only when none exists
local epoch = redis.call('GET', KEYS[1])
if not epoch then
  redis.call('SET', KEYS[1], ARGV[1])
  epoch = ARGV[1]
end
return epoch
