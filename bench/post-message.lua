-- wrk script: POST /messages with a fresh Idempotency-Key (a UUID) per request, so every request
-- stores a new message (a repeated key would only be a replay).
math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16))
local body = '{"to":"jhon@gmail.com","subject":"benchmark","text":"Lorem Ipsum is simply dummy text of the printing and typesetting industry.","responseToUid":""}'

local function uuid()
  return string.format("%08x-%04x-4%03x-%04x-%012x",
    math.random(0, 0x7fffffff), math.random(0, 0xffff), math.random(0, 0xfff),
    0x8000 + math.random(0, 0x3fff), math.random(0, 0x7fffffff) * 0x10000 + math.random(0, 0xffff))
end

request = function()
  return wrk.format("POST", "/messages", {
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = uuid(),
  }, body)
end

done = function(summary, latency, requests)
  io.write(string.format("non-2xx or errors: %d status, %d connect, %d read, %d timeout\n",
    summary.errors.status, summary.errors.connect, summary.errors.read, summary.errors.timeout))
end
