-- Ends a full projection rebuild: writes the generation marker only when the run's key is still
-- there (Redis kept everything the rebuild wrote), and releases the lock if this run still holds it.
-- KEYS[1] this run's key, KEYS[2] the generation marker, KEYS[3] the rebuild lock
-- ARGV[1] the marker's value ('' when the rebuild failed: nothing is written), ARGV[2] the run's token
-- Returns 1 when the marker was written.
local intact = redis.call('DEL', KEYS[1]) == 1
local written = 0
if intact and ARGV[1] ~= '' then
  redis.call('SET', KEYS[2], ARGV[1])
  written = 1
end
if redis.call('GET', KEYS[3]) == ARGV[2] then
  redis.call('DEL', KEYS[3])
end
return written
