#!/bin/sh
# Sync throughput (issue 27): upload and download of N objects through PostgreSQL, objects/s,
# against a plain COPY of the same rows into a table of the same shape (the limit); then the
# end-to-end latency from a commit on one client to the change set on another (p50/p99).
#
#   swift build -c release --product realmtui
#   pg_virtualenv -- Benchmarks/Scripts/sync-bench.sh [N] [BATCH] [path/to/realmtui] [LATENCY_COMMITS]
#
# Needs a server through PG* variables (pg_virtualenv sets them) and psql.
set -eu
N=${1:-100000}
BATCH=${2:-1000}
REALMTUI=${3:-.build/release/realmtui}
DIR=$(mktemp -d)
trap 'rm -rf "$DIR"' EXIT
NS="bench_$$"
psql -qX -c "CREATE SCHEMA $NS" >/dev/null
URL="postgresql://?options=-csearch_path%3D$NS"

cat > "$DIR/schema.json" <<'JSON'
[{"name": "Item", "primaryKey": "id", "properties": {"id": "int", "name": "string", "n": "int?", "score": "double", "tags": "string[]"}}]
JSON
awk -v n="$N" 'BEGIN { printf "["; for (i = 0; i < n; i++) { if (i) printf ","; printf "{\"id\":%d,\"name\":\"item %d\",\"n\":%d,\"score\":%d.5,\"tags\":[\"a\",\"b\"]}", i, i, i % 97, i } printf "]\n" }' > "$DIR/items.json"
"$REALMTUI" create "$DIR/a.realm" --schema "$DIR/schema.json" >/dev/null
"$REALMTUI" import "$DIR/a.realm" "$DIR/items.json" --class Item >/dev/null
"$REALMTUI" create "$DIR/b.realm" --schema "$DIR/schema.json" >/dev/null
"$REALMTUI" sync init "$DIR/a.realm" "$URL" >/dev/null
"$REALMTUI" sync init "$DIR/b.realm" "$URL" >/dev/null

now() { date +%s.%N; }
rate() { awk -v n="$N" -v a="$1" -v b="$2" 'BEGIN { printf "%.2f s, %.0f objects/s", b - a, n / (b - a) }'; }

t0=$(now); "$REALMTUI" sync "$DIR/a.realm" --once --batch "$BATCH" >/dev/null; t1=$(now)
echo "upload   $N objects (batch $BATCH): $(rate "$t0" "$t1")"
t0=$(now); "$REALMTUI" sync "$DIR/b.realm" --once --batch "$BATCH" >/dev/null; t1=$(now)
echo "download $N objects (page $BATCH):  $(rate "$t0" "$t1")"
# The same rows copied straight into a table of the same columns: PostgreSQL's own limit.
awk -v n="$N" 'BEGIN { for (i = 0; i < n; i++) printf "%d\titem %d\t%d\t%d.5\t[\"a\", \"b\"]\n", i, i, i % 97, i }' > "$DIR/items.tsv"
psql -qX -c "CREATE TABLE $NS.copy_limit (id bigint PRIMARY KEY, name text, n bigint, score double precision, tags jsonb)"
t0=$(now); psql -qX -c "\\copy $NS.copy_limit FROM '$DIR/items.tsv'"; t1=$(now)
echo "psql COPY of the same rows:           $(rate "$t0" "$t1")"

# End-to-end latency: both agents running, a one-object commit on A (`realmtui update`) until
# `realmtui watch` on B prints its change set. The clock starts when the update process has
# exited (its commit is durable), so process start-up is not counted; the next commit waits
# for the change set. LAT commits (default 100); p50 and p99 in milliseconds.
LAT=${4:-100}
mkfifo "$DIR/watch.fifo"
"$REALMTUI" sync "$DIR/a.realm" --poll 3600 >"$DIR/agent-a.log" 2>&1 &
AGENT_A=$!
"$REALMTUI" sync "$DIR/b.realm" --poll 3600 >"$DIR/agent-b.log" 2>&1 &
AGENT_B=$!
"$REALMTUI" watch "$DIR/b.realm" Item "id < 10" --count-events "$LAT" >"$DIR/watch.fifo" &
WATCH=$!
trap 'kill $AGENT_A $AGENT_B $WATCH 2>/dev/null || true; rm -rf "$DIR"' EXIT
exec 3<"$DIR/watch.fifo"
read -r _ <&3   # the initial result
i=0
: >"$DIR/latency.txt"
while [ "$i" -lt "$LAT" ]; do
  "$REALMTUI" update "$DIR/a.realm" Item "id == $((i % 10))" --set "n=$((1000 + i))" >/dev/null
  t0=$(now)
  read -r _ <&3
  t1=$(now)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", (b - a) * 1000 }' >>"$DIR/latency.txt"
  i=$((i + 1))
done
exec 3<&-
sort -n "$DIR/latency.txt" | awk '{ v[NR] = $1 } END {
  p50 = v[int((NR - 1) * 0.50) + 1]; p99 = v[int((NR - 1) * 0.99) + 1]
  printf "latency commit on A -> change set on B (%d commits): p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", NR, p50, p99, v[NR] }'
kill $AGENT_A $AGENT_B 2>/dev/null || true
wait $AGENT_A $AGENT_B 2>/dev/null || true

psql -qX -c "SET client_min_messages TO warning; DROP SCHEMA $NS CASCADE" >/dev/null
