#!/usr/bin/env bash
# Issue 25's speed goal, measured by hand (never in CI): writing a Realm Core file of N objects
# (default 1,000,000) with `realmtui copy --format realm-core` against Realm Core writing the same
# data (`realm-core-tool make --streaming`, Group::write as writeCopy does).
#
#   swift build -c release --product realmtui
#   Benchmarks/Scripts/core-writer-bench.sh [N] [RUNS]
#
# Environment: REALMTUI (default .build/release/realmtui), REALM_CORE_TOOL (default
# ../shared/realm-core/tools/realm-core-tool), KEEP=1 keeps the work folder.
#
# The data: one class `Big` of five properties as in generated-big.realm (`_id` int primary
# key — indexed, `count` int, `label` string, `ratio` double, `stamp` date), from a fixed seed.
# Each step prints wall time, user and system CPU and peak memory (/usr/bin/time); on a loaded
# machine compare CPU (user + sys), not wall time.
#
# What each figure includes:
# - core make N: Realm Core parsing the JSON document (the dump shape), creating the N objects in
#   one write transaction and writing the file with Group::write in streaming form. `core make
#   tiny` (3 objects) is the tool's fixed cost; the JSON parsing is not separable.
#   The tool's Realm Core is built -O2 with REALM_DEBUG checks and assertions compiled in.
# - realmtui copy: opening the realmtui file, reading every object and writing the Realm Core
#   file (committed form; --streaming: streaming form).
set -euo pipefail
N=${1:-1000000}
RUNS=${2:-3}
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
REALMTUI=${REALMTUI:-$ROOT/.build/release/realmtui}
TOOL=${REALM_CORE_TOOL:-$ROOT/../shared/realm-core/tools/realm-core-tool}
for f in "$REALMTUI" "$TOOL"; do
    [ -x "$f" ] || { echo "missing: $f" >&2; exit 1; }
done
DIR=$(mktemp -d "${TMPDIR:-/tmp}/core-writer-bench.XXXXXX")
[ "${KEEP:-}" = 1 ] && echo "work folder: $DIR" >&2 || trap 'rm -rf "$DIR"' EXIT
export REALM_CORE_TOOL_NO_FORK=1

python3 - "$N" "$DIR/big.json" "$DIR/tiny.json" <<'PY'
import random, sys
cols = ('[{"name": "_id", "type": "int", "nullable": false, "collection": null, "index": "general"},'
        ' {"name": "count", "type": "int", "nullable": false, "collection": null, "index": null},'
        ' {"name": "label", "type": "string", "nullable": false, "collection": null, "index": null},'
        ' {"name": "ratio", "type": "double", "nullable": false, "collection": null, "index": null},'
        ' {"name": "stamp", "type": "timestamp", "nullable": false, "collection": null, "index": null}]')
def doc(n, path):
    r = random.Random(25)
    with open(path, "w") as f:
        f.write('{"tables": [\n {"name": "class_Big", "type": "top_level", "primary_key": "_id", '
                '"columns": %s, "objects": [\n' % cols)
        for i in range(n):
            f.write('  {"_key": %d, "fields": {"_id": %d, "count": %d, "label": "label-%d", "ratio": %.17g, '
                    '"stamp": {"seconds": %d, "nanoseconds": %d}}}%s'
                    % (i, i, r.randrange(1000000), r.randrange(100000), r.random(),
                       1500000000 + r.randrange(300000000), r.randrange(1000) * 1000000,
                       ",\n" if i + 1 < n else "\n"))
        f.write(' ]}\n]}\n')
doc(int(sys.argv[1]), sys.argv[2])
doc(3, sys.argv[3])
PY

measure() { # label, command...
    local label=$1
    shift
    /usr/bin/time -f "$label: %e s wall, %U s user, %S s sys, %M KB peak" "$@" >/dev/null
}

"$TOOL" make "$DIR/seed.realm" --from "$DIR/big.json" --streaming >/dev/null
"$REALMTUI" copy "$DIR/seed.realm" "$DIR/native.realm" >/dev/null
echo "objects: $N; realmtui file $(stat -c %s "$DIR/native.realm") bytes; load: $(cut -d' ' -f1-3 /proc/loadavg)"
for run in $(seq "$RUNS"); do
    rm -f "$DIR"/core-*.realm "$DIR"/out*.realm
    measure "run $run core make $N --streaming" "$TOOL" make "$DIR/core-big.realm" --from "$DIR/big.json" --streaming
    measure "run $run core make tiny --streaming" "$TOOL" make "$DIR/core-tiny.realm" --from "$DIR/tiny.json" --streaming
    measure "run $run realmtui copy --format realm-core" \
        "$REALMTUI" copy "$DIR/native.realm" "$DIR/out.realm" --format realm-core
    measure "run $run realmtui copy --format realm-core --streaming" \
        "$REALMTUI" copy "$DIR/native.realm" "$DIR/out-streaming.realm" --format realm-core --streaming
done
echo "sizes: core $(stat -c %s "$DIR/core-big.realm"), realmtui $(stat -c %s "$DIR/out.realm"), realmtui streaming $(stat -c %s "$DIR/out-streaming.realm") bytes"
"$TOOL" verify "$DIR/out.realm" | grep -q '"result": "ok"' && echo "realm-core-tool verify of realmtui's file: ok"
