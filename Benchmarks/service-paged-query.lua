-- wrk script of Benchmarks/service-throughput.sh (a): paged queries of 100 features spread over a layer.
--   wrk -t1 -c8 -d10s --latency -s Benchmarks/service-paged-query.lua http://127.0.0.1:PORT -- PATH N
-- PATH is the layer's query URL path (/arcgis/rest/services/<svc>/FeatureServer/0/query), N its feature count.
-- Request k asks for resultOffset (k * 7919) mod (N - 99), resultRecordCount 100 (the same offsets as
-- service_bench.py's raw SQLite figure). A reply counts as bad unless it is HTTP 200 with a feature list and
-- is not an error document (ArcGIS errors are HTTP 200); `done` prints one line for the script:
--   WRK <requests> <seconds> <requests/s> <p50 ms> <p99 ms> <bad replies> <socket errors>
path = nil
n = 0
k = 0
bad = 0
local threads = {}

function setup(thread)
   table.insert(threads, thread)
end

function init(args)
   path = args[1]
   n = tonumber(args[2])
   -- Each thread starts at another place in the sequence.
   k = math.random(0, 1000)
end

function request()
   local offset = (k * 7919) % (n - 99)
   k = k + 1
   return wrk.format("GET", path .. "?resultOffset=" .. offset .. "&resultRecordCount=100&f=json")
end

function response(status, headers, body)
   -- An error document is the whole body, `{"error":...}` (compact JSON): looking at its first 9 bytes tells it
   -- (searching the whole 56 KB body for it cost wrk, which shares the 2 cores with the server, CPU per reply).
   if status ~= 200 or body:sub(1, 9) == '{"error":' or not string.find(body, '"features":[{', 1, true) then
      bad = bad + 1
   end
end

function done(summary, latency, requests)
   local total_bad = 0
   for _, thread in ipairs(threads) do
      total_bad = total_bad + thread:get("bad")
   end
   local seconds = summary.duration / 1e6
   local e = summary.errors
   io.write(string.format("WRK %d %.3f %.1f %.3f %.3f %d %d\n", summary.requests, seconds, summary.requests / seconds,
      latency:percentile(50) / 1000, latency:percentile(99) / 1000, total_bad,
      e.connect + e.read + e.write + e.status + e.timeout))
end
