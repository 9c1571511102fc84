-- Counts one request of a partner in a fixed window and returns the count so far, in one round
-- trip: the first request of a window starts the counter's expiry, so an idle partner leaves
-- nothing behind.
-- KEYS[1] the partner's counter for this window
-- ARGV[1] time to live of the counter in milliseconds (the rest of the window, and a margin)
local count = redis.call('INCR', KEYS[1])
if count == 1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
end
return count
