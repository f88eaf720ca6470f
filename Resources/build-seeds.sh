#!/usr/bin/env bash
# Rebuilds the bundled seed files from the JSON beside them:
#   NAME.schema.json (realm-js schema) + NAME.json (the objects, in `realmtui export` form) → NAME.realm
# demo.realm is made by `realmtui demo` (see its --help); its export is demo.json.
# Usage: Resources/build-seeds.sh [path/to/realmtui]
set -euo pipefail
cd "$(dirname "$0")"
realmtui="${1:-../.build/debug/realmtui}"
for name in dogs types; do
    rm -f "$name.realm" "$name.realm.lock"
    "$realmtui" create "$name.realm" --schema "$name.schema.json"
    "$realmtui" import "$name.realm" "$name.json"
    rm -f "$name.realm.lock"
done
