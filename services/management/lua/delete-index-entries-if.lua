-- Compare-and-delete on the global tracking-number index: removes a field only while it still holds
-- the value the caller found stale, so an entry another writer has just set (a number that moved to
-- another partner) survives.
--
-- KEYS[1] the index hash
-- ARGV    number 1, value found 1, number 2, value found 2, ...
-- Returns how many fields were removed.

local removed = 0
for i = 1, #ARGV, 2 do
  if redis.call('HGET', KEYS[1], ARGV[i]) == ARGV[i + 1] then
    removed = removed + redis.call('HDEL', KEYS[1], ARGV[i])
  end
end
return removed
