-- mcp-policy rate limits (SPEC §10): the same three algorithms as the in-memory store's LimitState.
-- KEYS[i]: the state of limit i. ARGV[1]: the time in ms, or '' for Redis's own TIME (the default).
-- ARGV[2]: 'a' takes one unit from every limit or from none; 'p' only reads.
-- Then three ARGV per limit: algorithm ('s' sliding, 'f' fixed, 't' token_bucket), window in ms, max.
-- 'a' answers {-1, 0} when admitted, else {i, retry_ms} for the first limit (0-based) without room.
-- 'p' answers {used_1, retry_1, used_2, retry_2, ...}.
local now
if ARGV[1] ~= '' then
  now = tonumber(ARGV[1])
else
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local mode = ARGV[2]
local n = #KEYS

local function wait_of(key, alg, window, max)
  if alg == 's' then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    local total = redis.call('ZCARD', key)
    if total < max then return 0, total end
    local oldest = redis.call('ZRANGE', key, total - max, total - max, 'WITHSCORES')
    return tonumber(oldest[2]) + window - now, total
  elseif alg == 'f' then
    local start = math.floor(now / window) * window
    local v = redis.call('HMGET', key, 's', 'c')
    local count = 0
    if tonumber(v[1]) == start then count = tonumber(v[2]) or 0 end
    if count < max then return 0, count end
    return start + window - now, count
  else
    local per_ms = max / window
    local v = redis.call('HMGET', key, 't', 'r')
    local tokens, at = max, now
    if v[1] then
      tokens, at = tonumber(v[1]), tonumber(v[2])
      if now > at then
        tokens = math.min(max, tokens + (now - at) * per_ms)
        at = now
        if mode == 'a' then redis.call('HSET', key, 't', string.format('%.17g', tokens), 'r', string.format('%d', at)) end
      end
    end
    local used = math.max(0, max - math.floor(tokens + 1e-9))
    if tokens >= 1 - 1e-9 then return 0, used end
    return math.ceil((1 - tokens) / per_ms), used
  end
end

local function take(key, alg, window, max)
  if alg == 's' then
    local seq = redis.call('ZCARD', key)
    while redis.call('ZADD', key, 'NX', now, string.format('%d:%d', now, seq)) == 0 do seq = seq + 1 end
    redis.call('PEXPIRE', key, window)
  elseif alg == 'f' then
    local start = math.floor(now / window) * window
    if tonumber(redis.call('HGET', key, 's')) == start then
      redis.call('HINCRBY', key, 'c', 1)
    else
      redis.call('HSET', key, 's', string.format('%d', start), 'c', 1)
    end
    redis.call('PEXPIRE', key, start + window - now)
  else
    local v = redis.call('HMGET', key, 't', 'r')
    local tokens, at = max, now
    if v[1] then tokens, at = tonumber(v[1]), tonumber(v[2]) end
    redis.call('HSET', key, 't', string.format('%.17g', math.max(0, tokens - 1)), 'r', string.format('%d', at))
    redis.call('PEXPIRE', key, window)
  end
end

if mode == 'p' then
  local out = {}
  for i = 1, n do
    local b = 3 + (i - 1) * 3
    local wait, used = wait_of(KEYS[i], ARGV[b], tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]))
    out[2 * i - 1] = used
    out[2 * i] = wait
  end
  return out
end

for i = 1, n do
  local b = 3 + (i - 1) * 3
  local wait = wait_of(KEYS[i], ARGV[b], tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]))
  if wait > 0 then return {i - 1, wait} end
end
for i = 1, n do
  local b = 3 + (i - 1) * 3
  take(KEYS[i], ARGV[b], tonumber(ARGV[b + 1]), tonumber(ARGV[b + 2]))
end
return {-1, 0}
