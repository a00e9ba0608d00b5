#!/usr/bin/env python3
"""The test executables `cargo test` builds that link SpiderMonkey:
`python3 tools/count_spidermonkey_tests.py .` (the workspace root).

A target counts when cargo builds it as a test (lib/bin/test targets, and
examples with `test = true`) and its package depends on `mozjs` or
`mozjs_sys`, directly or through workspace crates (for tests and
examples, dev-dependencies too)."""
import json,subprocess,sys
root=sys.argv[1]
meta=json.loads(subprocess.run(["cargo","metadata","--format-version","1","--offline","--no-deps"],cwd=root,capture_output=True,text=True).stdout or "{}")
if not meta:
    print("metadata failed"); sys.exit(1)
names={p["name"] for p in meta["packages"]}
deps={p["name"]:[d["name"] for d in p["dependencies"] if d["kind"] in (None,"dev")] for p in meta["packages"]}
normal={p["name"]:[d["name"] for d in p["dependencies"] if d["kind"] is None] for p in meta["packages"]}
def links(pkg, seen=None, graph=normal):
    seen=seen or set()
    for d in graph.get(pkg,[]):
        if d in ("mozjs","mozjs_sys"): return True
        if d in names and d not in seen:
            seen.add(d)
            if links(d,seen): return True
    return False
total=0
for p in meta["packages"]:
    for t in p["targets"]:
        kinds=t["kind"]
        test=t.get("test",True)
        if not test: continue
        if "lib" in kinds or "bin" in kinds or "test" in kinds or "example" in kinds:
            # tests/examples also get dev-deps
            sm = links(p["name"]) or (("test" in kinds or "example" in kinds) and any(links(d) or d in ("mozjs","mozjs_sys") for d in deps[p["name"]]))
            if sm:
                total+=1; print(p["name"], kinds, t["name"])
print("total", total)
