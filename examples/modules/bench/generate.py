#!/usr/bin/env python3
"""Generates the module-graph load benchmark into a directory (default
./out): `modules.html` loads a graph of N modules (default 2,000; module i
imports modules 2i+1 and 2i+2, a binary tree, each defines and exports one
function), `classic.html` runs the same functions as one classic script.
Both pages call the root function the same way and print one line with
its result, so a run can be checked.

    python3 generate.py [--modules N] [OUT]
"""
import argparse
import os


def function_body(i, n):
    children = [c for c in (2 * i + 1, 2 * i + 2) if c < n]
    calls = "".join(f" + f{c}(x + {k})" for k, c in enumerate(children))
    return (
        f"function f{i}(x) {{\n"
        f"  let acc = {i};\n"
        f"  for (let k = 0; k < 20; k++) acc = (acc * 31 + x + k) % 1000003;\n"
        f"  return (acc{calls}) % 1000003;\n"
        f"}}\n"
    )


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--modules", type=int, default=2000)
    parser.add_argument("out", nargs="?", default="out")
    args = parser.parse_args()
    n = args.modules
    os.makedirs(os.path.join(args.out, "m"), exist_ok=True)
    for i in range(n):
        children = [c for c in (2 * i + 1, 2 * i + 2) if c < n]
        imports = "".join(f"import {{ f{c} }} from './{c}.js';\n" for c in children)
        with open(os.path.join(args.out, "m", f"{i}.js"), "w") as f:
            f.write(imports + "export " + function_body(i, n))
    root_call = "console.log('result ' + f0(1));\n"
    with open(os.path.join(args.out, "modules.html"), "w") as f:
        f.write(
            "<!DOCTYPE html><title>module graph</title>\n"
            "<script type=module>\nimport { f0 } from './m/0.js';\n" + root_call + "</script>\n"
        )
    with open(os.path.join(args.out, "classic.js"), "w") as f:
        for i in range(n):
            f.write(function_body(i, n))
        f.write(root_call)
    with open(os.path.join(args.out, "classic.html"), "w") as f:
        f.write("<!DOCTYPE html><title>one classic script</title>\n<script src=classic.js></script>\n")


if __name__ == "__main__":
    main()
