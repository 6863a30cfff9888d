# What the benchmarks share (sourced by bench/run and bench/scale): the
# tools they need, starting the release binary and measuring with wrk.

# Installs wrk, nginx and curl from Debian when one is missing and this is
# root on Debian; otherwise says how, and fails.
need_tools() {
  local missing=()
  for tool in wrk nginx curl; do command -v "$tool" >/dev/null || missing+=("$tool"); done
  (( ${#missing[@]} )) || return 0
  if [[ $(id -u) -eq 0 ]] && command -v apt-get >/dev/null; then
    echo "bench: installing ${missing[*]} from Debian..."
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk nginx curl >/dev/null \
      || { echo "bench: could not install ${missing[*]} with apt-get" >&2; exit 1; }
  else
    echo "bench: ${missing[*]} missing; run 'sudo apt-get install wrk nginx curl' and try again" >&2
    exit 1
  fi
}

# Starts the release binary on port $1 with database $2 (the demo content
# loads into it), keeping $3 rendered pages (default 2,048), its log in
# $work, and waits until it answers; its pid is in $started.
# wrk is one client: the order benchmark names a new buyer's address per
# order in X-Forwarded-For (the server trusts it from 127.0.0.1 here), so
# it measures many buyers ordering at once under the real per-client
# limits, and the write rate limit (per address too) is lifted.
start_enrol() {
  local port=$1 url=$2 pages=${3:-2048} log=$work/enrol-$1.log
  ENROL_LISTEN=127.0.0.1:$port DATABASE_URL=$url RUST_LOG=warn ENROL_TRUSTED_PROXIES=127.0.0.1 ENROL_PAGE_CACHE_ENTRIES=$pages \
    ENROL_WRITES_PER_MINUTE=1000000 ENROL_WRITE_BURST=1000000 ENROL_DEMO_STUDENTS=1 \
    "$CARGO_TARGET_DIR/release/enrol" >"$log" 2>&1 &
  started=$!
  for _ in $(seq 1 150); do
    curl -fsS "http://127.0.0.1:$port/healthz" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  kill "$started" 2>/dev/null || true
  cat "$log" >&2
  return 1
}

# One table row for wrk's run of "$@" (after the label $1): requests per
# second, p50 and p99. wrk prints "Requests/sec: N" and a latency
# distribution with 50% and 99%. The number of requests made is kept in
# $measured_requests (for measure_cpu).
measure() {
  local label=$1; shift
  local out; out=$(wrk --latency -d "$DURATION" "$@")
  if grep -q 'Non-2xx' <<<"$out"; then echo "bench: $label had failed responses: $(grep 'Non-2xx' <<<"$out")" >&2; fi
  if grep -q 'Socket errors' <<<"$out"; then echo "bench: $label: $(grep 'Socket errors' <<<"$out")" >&2; fi
  local rps p50 p99
  measured_requests=$(awk '/requests in/ {print $1}' <<<"$out")
  rps=$(awk '/Requests\/sec/ {print $2}' <<<"$out")
  p50=$(awk '$1=="50%" {print $2}' <<<"$out")
  p99=$(awk '$1=="99%" {print $2}' <<<"$out")
  printf '| %s | %s | %s | %s |\n' "$label" "$rps" "$p50" "$p99"
}

# The CPU time, user and system, in clock ticks, that the processes $@
# have used so far.
cpu_ticks() {
  local ticks=0 pid
  for pid in "$@"; do
    [[ -r /proc/$pid/stat ]] && ticks=$(( ticks + $(awk '{print $14 + $15}' "/proc/$pid/stat") ))
  done
  echo "$ticks"
}

# Runs `measure "$@"` (its row on stdout) for the server $1 (the rest:
# measure's arguments) and keeps in $measured_cpu the CPU time per request
# of the server and of the local PostgreSQL server's processes (all of the
# user postgres: its connections, its log writer and its checkpoints). On a
# machine whose cores are shared these move with the host's load: the same
# build's requests then cost more CPU time, and its latency grows with them.
measure_cpu() {
  local pid=$1; shift
  local server_before pg_before
  server_before=$(cpu_ticks "$pid"); pg_before=$(cpu_ticks $(pgrep -u postgres))
  measure "$@"
  measured_cpu=$(awk -v s=$(( $(cpu_ticks "$pid") - server_before )) -v p=$(( $(cpu_ticks $(pgrep -u postgres)) - pg_before )) \
    -v hz="$(getconf CLK_TCK)" -v n="$measured_requests" \
    'BEGIN {k = 1000 / hz / n; printf "the server %.2f ms, PostgreSQL %.2f ms", s * k, p * k}')
}

# The server $1's peak memory (VmHWM) in MB.
peak_mb() {
  echo $(( $(awk '/VmHWM/ {print $2}' "/proc/$1/status") / 1024 ))
}

# The server $1's memory of its own now (RssAnon) in MB: not the pages of
# a database file it maps (SQLite's `mmap_size`), which the system shares
# and takes back, and which VmHWM counts.
own_mb() {
  echo $(( $(awk '/RssAnon/ {print $2}' "/proc/$1/status") / 1024 ))
}

# Runs the rest of the arguments while watching the server $1's own memory
# every 20 ms: the most it held meanwhile, in MB, on stdout (the command's
# output goes to stderr).
own_peak_mb_during() {
  local pid=$1; shift
  "$@" >&2 &
  local job=$! most=0 now
  while kill -0 "$job" 2>/dev/null; do
    now=$(own_mb "$pid")
    (( now > most )) && most=$now
    sleep 0.02
  done
  wait "$job"
  echo "$most"
}

# The PostgreSQL server $1's settings that move the write figures between
# machines, on one line.
pg_settings() {
  psql -Atq "$1/postgres" -F= -c "select name, setting || coalesce(unit, '') from pg_settings where name in \
    ('server_version', 'shared_buffers', 'synchronous_commit', 'fsync', 'wal_sync_method', 'commit_delay', 'max_connections', 'work_mem', 'effective_io_concurrency', 'autovacuum') order by name" \
    | paste -sd' '
}

# How long one commit of one row takes on the database at $1, alone
# (pgbench, 3 s): the disk's flush. Orders with a seat hold of one session
# commit one after another, so their latency under load moves with it from
# machine to machine.
pg_commit_ms() {
  local pgbench
  pgbench=$(command -v pgbench || ls /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | tail -n 1 || true)
  [[ -n $pgbench && -x $pgbench ]] || { echo "not measured (no pgbench)"; return; }
  psql -q "$1" -c "create table bench_commit (n integer)" >/dev/null
  local script; script=$(mktemp /tmp/enrol-commit.XXXXXX)
  echo 'insert into bench_commit values (1);' >"$script"
  "$pgbench" -n -c 1 -T 3 -f "$script" "$1" 2>/dev/null | awk '/latency average/ {print $4 " ms"}'
  rm -f "$script"
  psql -q "$1" -c "drop table bench_commit" >/dev/null
}

# Order creation (POST /api/enroll/): gives the demo's chemical-peels-1
# room for every order a run makes (database $1), so each request prices,
# checks and holds a seat.
roomy_session() {
  local roomy="update session set seats = 10000000, registrations = 0 where id = 'chemical-peels-1'"
  if [[ $1 == sqlite://* ]]; then
    python3 -c 'import sqlite3, sys; db = sqlite3.connect(sys.argv[1]); db.execute(sys.argv[2]); db.commit()' "${1#sqlite://}" "$roomy"
  else
    psql -q "$1" -c "$roomy" >/dev/null
  fi
}

# Writes to $2 the wrk script of an order of chemical-peels-1 at the price
# the site at $1 shows, each from its own buyer (address), as when many
# people book at once (10.<thread>.<n / 256>.<n % 256>), and checks the
# site takes one.
enroll_lua() {
  local base=$1 file=$2 price deposit
  price=$(curl -fsS "$base/api/page-data?path=/courses/aesthetics/chemical-peels/" \
    | python3 -c 'import json,sys; s=[s for s in json.load(sys.stdin)["page"]["sessions"] if s["id"]=="chemical-peels-1"][0]; print(s["price"])')
  deposit=$(( price < 10000 ? price : 10000 ))
  cat >"$file" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
local threads = 0
setup = function(thread)
  thread:set("thread_id", threads)
  threads = threads + 1
end
local n = 0
request = function()
  n = n + 1
  wrk.headers["X-Forwarded-For"] = string.format("10.%d.%d.%d", thread_id, math.floor(n / 256) % 256, n % 256)
  return wrk.format()
end
wrk.body = '{"data":{"discount":null,"contact":{"name":"Bench","surname":"Mark","email":"bench@example.com","phone":"07700900123"},"selected":"card","mode":"fee","enrollment":{"total":$price,"deposit":$deposit,"balance":$((price - deposit)),"deposit_required":true,"metadata":[{"courseId":"chemical-peels","sessionId":"chemical-peels-1","includeKit":false}],"method":"stripe","acct":null,"status":"pending","type":"student","organization":null},"agreed":{"version":"2026-11-26","terms":true,"entryRequirements":["chemical-peels"]},"metadata":{}}}'
LUA
  curl -fsS -o /dev/null -X POST -H 'content-type: application/json' --data "$(sed -n "s/^wrk.body = '\(.*\)'$/\1/p" "$file")" "$base/api/enroll/" \
    || { echo "bench: the order body was refused" >&2; exit 1; }
}
