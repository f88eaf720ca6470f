#!/usr/bin/env python3
"""Builds the seed corpora in Fuzz/corpus/<target>/ from the repository's files (run from Fuzz/).

file:     the small originals (whole, truncated, bit-flipped) and Resources/demo.realm's first
          pages, behind mode byte 0 (raw file); mutation scripts behind mode byte 1.
query:    every string passed to .filter("...") in Tests/, plus queries on the target's schema.
import:   Resources/demo.json and small documents cut from it (a few objects per class).
explorer: a few key sequences (navigation, search, sort, detail, resize).
core:     the small Realm Core fixtures, whole, cut and as mutation scripts.
"""
import json, os, random, re, struct, glob

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.join(root, "Fuzz", "corpus")
random.seed(11)

def put(target, name, data):
    d = os.path.join(out, target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)

# file
originals = sorted(glob.glob(os.path.join(root, "Tests/RealmEngineTests/Fixtures/Fuzz/originals/*.realm")))
for path in originals + [os.path.join(root, "Resources/demo.realm")]:
    base = os.path.basename(path)
    data = open(path, "rb").read()
    if "demo" not in base:
        put("file", base + ".raw", b"\0" + data)
    for n in (512, 1024, 4096, 8192, len(data) // 2):
        put("file", f"{base}.cut{n}", b"\0" + data[:n])
    for k in range(4):
        b = bytearray(data[:8192])
        for _ in range(4):
            i = random.randrange(len(b))
            b[i] ^= 1 << random.randrange(8)
        put("file", f"{base}.flip{k}", b"\0" + bytes(b))
for k in range(24):
    script = bytes([1, k % max(1, len(originals))])
    for _ in range(1 + k % 3):
        script += bytes([random.randrange(256)]) + struct.pack("<I", random.randrange(1 << 32))
    put("file", f"script{k}", script)

# core: Realm Core files (CoreFileFuzzer.originalNames, the encrypted one last): whole behind
# mode 0 (mode 2: decrypt first), cut; mutation scripts behind mode 1 (3: then decrypt).
core_names = ["watch-before.realm", "realm-swift_migration_default-v5.realm", "realm-core_test_upgrade_database_20.realm",
              "realm-core_test_upgrade_database_1000_22.realm", "realm-studio_asset_file.realm", "generated-compacted.realm",
              "generated-embedded-chain.realm", "generated-encrypted.realm"]
for i, name in enumerate(core_names):
    data = open(os.path.join(root, "Tests/RealmCoreFormatTests/Fixtures", name), "rb").read()
    mode = 2 if "encrypted" in name else 0
    put("core", name + ".raw", bytes([mode]) + data)
    for n in (24, 512, 4096, len(data) // 2):
        put("core", f"{name}.cut{n}", bytes([mode]) + data[:n])
for k in range(32):
    mode = 3 if k % 4 == 3 else 1
    script = bytes([mode, len(core_names) - 1 if mode == 3 else k % (len(core_names) - 1)])
    for _ in range(1 + k % 4):
        script += bytes([random.randrange(256)]) + struct.pack(">I", random.randrange(1 << 32))
    put("core", f"script{k}", script)
# The conversion (mode bit 2) of the file with embedded objects, whole and mutated: it reaches
# the embedded checks (parents, cycles) and the engine's embedded classes.
chain = core_names.index("generated-embedded-chain.realm")
put("core", "embedded-chain.convert", bytes([4]) + open(os.path.join(root, "Tests/RealmCoreFormatTests/Fixtures", core_names[chain]), "rb").read())
for k in range(8):
    script = bytes([5, chain])
    for _ in range(1 + k % 3):
        script += bytes([random.randrange(256)]) + struct.pack(">I", random.randrange(1 << 32))
    put("core", f"embedded-script{k}", script)

# query
queries = set()
for path in glob.glob(os.path.join(root, "Tests/**/*.swift"), recursive=True):
    for m in re.finditer(r'\.filter\("((?:[^"\\]|\\.)*)"', open(path, encoding="utf-8").read()):
        queries.add(m.group(1).replace('\\"', '"'))
queries |= {
    "id > 2 AND name BEGINSWITH 'a'", "note == nil OR flag == true", "ANY tags == 't1'", "tags.@count > 2",
    "scores.@sum > 3", "parent.parent.name CONTAINS[c] 'A'", "children.@count == 1", "@links.Item.children.@count > 0",
    "parents.id == 1", "ratio BETWEEN {-2, 2}", "when > 1970-01-02T00:00:00Z", "blob == nil",
    "name IN {'a', 'Ab'}", "SUBQUERY(children, $c, $c.id > 2).@count > 0", "name LIKE '?b*'", "small < -50",
    "weight == nil && oid == nil", "NOT (id == 3) SORT(name DESC) LIMIT(2)", "uid != nil", "name ==[cd] 'AB'",
}
for i, q in enumerate(sorted(queries)):
    put("query", f"q{i:03}", q.encode())

# import
demo = open(os.path.join(root, "Resources/demo.json"), "rb").read()
put("import", "demo.json", demo)
doc = json.loads(demo)
if isinstance(doc, dict):
    for n in (1, 2, 4):
        small = {k: v[:n] for k, v in doc.items() if isinstance(v, list)}
        put("import", f"demo-first{n}.json", json.dumps(small, ensure_ascii=False).encode())
    for k, v in doc.items():
        if isinstance(v, list):
            put("import", f"demo-{k}.json", json.dumps({k: v[:3]}, ensure_ascii=False).encode())
    first = next(iter(doc))
    put("import", "array.json", json.dumps(doc[first][:3], ensure_ascii=False).encode())

# explorer: byte 0 is the read-only flag, then events (see ExplorerFuzzer)
def chars(s):  # printable ASCII 32..125 without ':' and '/' map to 0..; see ExplorerFuzzer.characters
    table = [c for c in range(32, 126) if c not in (58, 47)]
    return bytes(table.index(ord(c)) for c in s)
ENTER, ESC, BS, TAB, UP, DOWN, LEFT, RIGHT, PGDN = 0x80, 0x81, 0x82, 0x84, 0x86, 0x87, 0x88, 0x89, 0x8D
put("explorer", "navigate", bytes([0, DOWN, DOWN, ENTER, DOWN, ENTER, ESC, PGDN, UP, TAB, ENTER, LEFT, RIGHT, ESC]))
put("explorer", "search", bytes([0]) + chars("f") + chars("age > 2") + bytes([ENTER, DOWN, ENTER]))
put("explorer", "sort", bytes([1, DOWN, ENTER]) + chars("s") + chars("s") + bytes([RIGHT]) + chars("S"))
put("explorer", "resize", bytes([0, 0xE0, 20, 5, DOWN, ENTER, 0xE1, 1, 1, 0xE2, 139, 59, 0xC0, 10, 3, 0xC2, 0, 0, 0xF1]))
print("seeds in", out)
