-- The script wrk runs for the benchmarks (bench/wrk.ts): the run's figures as one line of JSON
-- from done(). With VOUCH_WRK_HEADER, that header is new at every request: its values are read
-- from VOUCH_WRK_FILE, one a line from byte VOUCH_WRK_OFFSET, thread i of n taking lines i, i + n,
-- ..., so that no value is sent twice. With VOUCH_WRK_REQUESTS, that many requests in all: each
-- thread sends its share, then prints "vouch-wrk idle" and stops, and wrk exits at SIGINT.
local threads = tonumber(os.getenv("VOUCH_WRK_THREADS"))
local header = os.getenv("VOUCH_WRK_HEADER")
local limit = tonumber(os.getenv("VOUCH_WRK_REQUESTS"))

-- In the setup and done phases only (wrk's main state): the threads, in the order of their index.
local started = {}

function setup(thread)
  thread:set("index", #started)
  started[#started + 1] = thread
end

local values, checked
local quota, connections, calls, idle = 0, 0, 0, 0

function init()
  if header then
    values = assert(io.open(os.getenv("VOUCH_WRK_FILE"), "rb"))
    values:seek("set", tonumber(os.getenv("VOUCH_WRK_OFFSET")))
    for _ = 1, index do values:read("*l") end
    -- wrk calls the first thread's request() once before it starts, only to parse what it returns.
    checked = index ~= 0
    taken = 0
  end
  if limit then
    quota = math.floor(limit / threads) + (index < limit % threads and 1 or 0)
    connections = math.floor(tonumber(os.getenv("VOUCH_WRK_CONNECTIONS")) / threads)
  end
end

if header then
  function request()
    if not checked then
      checked = true
      return wrk.format()
    end
    taken = taken + 1
    -- None left: the request goes without the header, and the route refuses it.
    wrk.headers[header] = values:read("*l")
    for _ = 2, threads do values:read("*l") end
    return wrk.format()
  end
end

if limit then
  -- Called before each request of a connection: past the thread's share, the connection waits an
  -- hour; once all of them wait, every answer is in.
  function delay()
    calls = calls + 1
    if calls <= quota then return 0 end
    idle = idle + 1
    if idle == connections then
      io.write("vouch-wrk idle\n")
      io.flush()
      wrk.thread:stop()
    end
    return 3600000
  end
end

function done(summary, latency)
  -- Values read, as the count from the first: each thread's last line read, and all before it.
  local spent = 0
  for _, thread in ipairs(started) do
    local taken = thread:get("taken") or 0
    if taken > 0 then spent = math.max(spent, (taken - 1) * threads + thread:get("index") + 1) end
  end
  local errors = summary.errors
  io.write(string.format(
    'vouch-wrk {"requests":%d,"micros":%d,"p99Micros":%d,"status":%d,"connect":%d,' ..
      '"read":%d,"write":%d,"timeout":%d,"spent":%d}\n',
    summary.requests, summary.duration, latency:percentile(99), errors.status, errors.connect,
    errors.read, errors.write, errors.timeout, spent))
end
