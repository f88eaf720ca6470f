#!/bin/sh
# Sync throughput (issue 27): upload and download of N objects through PostgreSQL, objects/s,
# against a plain COPY of the same rows into a table of the same shape (the limit).
#
#   swift build -c release --product realmtui
#   pg_virtualenv -- Benchmarks/Scripts/sync-bench.sh [N] [BATCH] [path/to/realmtui]
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
psql -qX -c "SET client_min_messages TO warning; DROP SCHEMA $NS CASCADE" >/dev/null
