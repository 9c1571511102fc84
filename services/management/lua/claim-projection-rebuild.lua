-- Starts a full projection rebuild (docs/redis-keys.md, Projection generation): takes the rebuild
-- lock unless another replica holds it (or takes it anyway when forced: a start or the operator's
-- command rebuilds regardless), and sets the run's own key, whose survival until the end proves
-- Redis lost nothing in between.
-- KEYS[1] the rebuild lock, KEYS[2] this run's key
-- ARGV[1] the run's token, ARGV[2] lock expiry (ms), ARGV[3] run key expiry (ms), ARGV[4] '1' to force
if ARGV[4] ~= '1' and redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], '1', 'PX', ARGV[3])
return 1
