#!/usr/bin/env python3
"""The real-world profiling-cost benchmark (`./mach bench-real`).

Pages built at benchmark time from pinned npm packages (fetched with
`npm pack` into a cache directory, sha512 checked against the registry's
integrity string on every run) run in the shell, one `jsprof` process per
run, with the profiler off and with a profiling session at 10 ms and at
1 ms started at document creation (`jsprof profile --interval N`), in
interleaved rounds (the order of the configurations rotates every round).

Each page runs its workload N times and prints the duration of each
iteration. Per process we take the median of the iterations after the
first (steady state) and, separately, the first iteration (which includes
compiling and warming up under the instrumentation); per configuration the
median over processes; the printed ratio is that median over the "off"
median, with a 95 % bootstrap interval (processes resampled with
replacement, 4000 times). A second table pairs each configuration's
process with the `off` process of the same round (the median of those
ratios, bootstrap over rounds): the VM's speed drifts by 15 % and more
between rounds, which the pairing cancels and the ratio of medians does not.
Wall time: the machine's noise is in the intervals; say what else was
running when you quote a figure.

Usage: run.py --jsprof PATH [--rounds N] [--workloads a,b] [--configs off,10,1]
              [--iterations N] [--json FILE]
Configurations: `off`; a number (a session at that interval, in ms);
`inst` (a session at 1000000 ms: the instrumentation on, no sampling);
any of these with `-nobk` (`inst-nobk`, `10-nobk`): the same with
`profiler.jit-frame-bookkeeping=0` added to JSPROF_BENCH_JIT for that run
only, which needs SpiderMonkey built with the patch series (what `./mach`
builds, third_party/mozjs_sys-patches): JIT code without the
lastProfilingFrame bookkeeping, i.e. the register-started walk of patch
0003, chosen explicitly (what sessions use by default); or with `-bk`
(`10-bk`): `profiler.jit-frame-bookkeeping=1`, SpiderMonkey's own
bookkeeping (the walk of an unpatched build).
Environment: JSPROF_BENCH_JIT (passed to the shell; see
components/script/src/profiling.rs `apply_jit_options_from_env`).
"""

import argparse
import base64
import hashlib
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
WORKLOADS_DIR = os.path.join(HERE, "workloads")

# name -> (version, `npm view name@version dist.integrity`)
PACKAGES = {
    "acorn": (
        "8.19.0",
        "sha512-oJlA3XiRm7Cyk6qFD2Jn8ak9B7jSy0qy00ADO3+8dpT0LSjFihQYv4C02LFCSYJV3Q37xYwwRy5m+IpIiUzqWw==",
    ),
    "marked": (
        "18.2.1",
        "sha512-ii4bxCTCqqwpT86XZWgJNs+ZnAIZksmLGYMViWA7PDIXYIeNo1x6cDdX3JOip9NM/cI6p8z57FxliACboTruMA==",
    ),
    "typescript": (
        "5.9.3",
        "sha512-jl1vZzPDinLr9eUt3J/t7V6FgNEw9QjvBPdysz9KfQDD41fQrC2Y4vKQdiaUpFT4bXlb1RHhLpp8wtm6M5TgSw==",
    ),
}

# Iterations per process (the first is reported separately).
ITERATIONS = {"acorn": 3, "marked": 3, "typescript": 5, "oo": 5, "fib": 5}
ALL_WORKLOADS = ["acorn", "marked", "typescript", "oo", "fib"]
MARKDOWN_BYTES = 8_000_000


def log(msg):
    print(f"bench-real: {msg}", file=sys.stderr, flush=True)


def cache_dir():
    if os.environ.get("JSPROF_NPM_CACHE"):
        return os.environ["JSPROF_NPM_CACHE"]
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.environ.get("HOME", tempfile.gettempdir()), ".cache"
    )
    return os.path.join(base, "js-self-profiling", "npm")


def verify(data, integrity):
    algo, _, expected = integrity.partition("-")
    if algo != "sha512":
        raise SystemExit(f"unsupported integrity {integrity}")
    actual = base64.b64encode(hashlib.sha512(data).digest()).decode()
    return actual == expected


def tarball(name):
    """The verified package tarball, fetched with `npm pack` when missing."""
    version, integrity = PACKAGES[name]
    directory = cache_dir()
    path = os.path.join(directory, f"{name}-{version}.tgz")
    if os.path.exists(path):
        with open(path, "rb") as f:
            data = f.read()
        if verify(data, integrity):
            return data
        log(f"cached {path} fails its checksum; fetching again")
    os.makedirs(directory, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=directory) as staging:
        log(f"npm pack {name}@{version}")
        subprocess.run(
            ["npm", "pack", f"{name}@{version}", "--ignore-scripts", "--silent",
             "--pack-destination", staging],
            cwd=staging, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
            timeout=300,
        )
        fetched = os.path.join(staging, f"{name}-{version}.tgz")
        with open(fetched, "rb") as f:
            data = f.read()
        if not verify(data, integrity):
            raise SystemExit(f"{name}@{version} from npm does not match its pinned checksum")
        os.replace(fetched, path)
    return data


def package_file(name, member):
    with tarfile.open(fileobj=io.BytesIO(tarball(name)), mode="r:gz") as tar:
        f = tar.extractfile(f"package/{member}")
        if f is None:
            raise SystemExit(f"{name}: no {member} in the package")
        return f.read().decode("utf-8")


def markdown_corpus(docs):
    """~8 MB of markdown: the packages' documentation, repeated under
    numbered headings (deterministic)."""
    parts = []
    size = 0
    copy = 0
    while size < MARKDOWN_BYTES:
        chunk = f"\n\n# Copy {copy}\n\n" + "\n\n".join(docs)
        parts.append(chunk)
        size += len(chunk)
        copy += 1
    return "".join(parts)


def build_pages(root, workloads, iterations_override):
    """Writes one page per workload into `root` (and `<w>.load.html`, the same
    page with no iteration); returns {workload: path}."""
    os.makedirs(root, exist_ok=True)
    def write(name, text):
        with open(os.path.join(root, name), "w", encoding="utf-8") as f:
            f.write(text)

    def data_script(var, text):
        # A string literal of the data (json.dumps escapes U+2028/9 as well).
        return f"var {var} = {json.dumps(text)};\n"

    needed = set(workloads)
    if "acorn" in needed or "typescript" in needed:
        write("acorn.lib.js", package_file("acorn", "dist/acorn.js"))
    if "acorn" in needed or "typescript" in needed:
        write("typescript.lib.js", package_file("typescript", "lib/typescript.js"))
    if "acorn" in needed:
        write("acorn.data.js", data_script("TYPESCRIPT_SOURCE",
                                           package_file("typescript", "lib/typescript.js")))
    if "typescript" in needed:
        write("typescript.data.js", data_script("ACORN_SOURCE",
                                                package_file("acorn", "dist/acorn.js")))
    if "marked" in needed:
        write("marked.lib.js", package_file("marked", "lib/marked.umd.js"))
        docs = [
            package_file("marked", "README.md"),
            package_file("marked", "man/marked.1.md"),
            package_file("acorn", "README.md"),
            package_file("typescript", "README.md"),
        ]
        write("marked.data.js", data_script("MARKDOWN_SOURCE", markdown_corpus(docs)))
    with open(os.path.join(WORKLOADS_DIR, "harness.js"), encoding="utf-8") as f:
        write("harness.js", f.read())
    libs = {
        "acorn": ["acorn.lib.js", "acorn.data.js"],
        "marked": ["marked.lib.js", "marked.data.js"],
        "typescript": ["typescript.lib.js", "typescript.data.js"],
        "oo": [],
        "fib": [],
    }
    pages = {}
    for w in workloads:
        with open(os.path.join(WORKLOADS_DIR, f"{w}.js"), encoding="utf-8") as f:
            write(f"{w}.bench.js", f.read())
        n = iterations_override or ITERATIONS[w]
        scripts = "".join(f'<script src="{s}"></script>\n' for s in libs[w] + [f"{w}.bench.js"])
        for suffix, count in (("", n), (".load", 0)):
            page = (
                "<!doctype html>\n<title>" + w + "</title>\n" + scripts
                + f"<script>var BENCH_ITERATIONS = {count};</script>\n"
                + '<script src="harness.js"></script>\n'
            )
            write(f"{w}{suffix}.html", page)
        pages[w] = os.path.join(root, f"{w}.html")
    return pages


NO_BOOKKEEPING_SUFFIX = "-nobk"
BOOKKEEPING_SUFFIX = "-bk"
BOOKKEEPING_OPTIONS = {
    NO_BOOKKEEPING_SUFFIX: "profiler.jit-frame-bookkeeping=0",
    BOOKKEEPING_SUFFIX: "profiler.jit-frame-bookkeeping=1",
}


def base_config(config):
    """`config` without its bookkeeping suffix (`10-nobk` -> `10`)."""
    for suffix in BOOKKEEPING_OPTIONS:
        if config.endswith(suffix):
            return config.removesuffix(suffix)
    return config


def environment(config):
    """The shell's environment for `config`: `-nobk` and `-bk` configurations
    add the bookkeeping switch of patch 0001 to JSPROF_BENCH_JIT."""
    env = dict(os.environ)
    for suffix, option in BOOKKEEPING_OPTIONS.items():
        if config.endswith(suffix):
            jit = env.get("JSPROF_BENCH_JIT", "")
            env["JSPROF_BENCH_JIT"] = f"{jit},{option}" if jit else option
    return env


def check_jit_options(proc, cmd):
    """The shell only warns about JIT options it cannot set (an unknown name,
    or the bookkeeping switch without the patched SpiderMonkey): a measurement
    under options that were not applied is wrong, so it stops here."""
    for line in proc.stderr.splitlines():
        if "JSPROF_BENCH_JIT ignored" in line:
            raise SystemExit(f"{' '.join(cmd)}: {line.strip()}")


def command(jsprof, config, page, trace_path):
    config = base_config(config)
    if config == "off":
        return [jsprof, "--quiet", page]
    interval = "1000000" if config == "inst" else config
    return [jsprof, "profile", "--quiet", "--interval", interval, "--max-samples", "1000000",
            "--out", trace_path, "--top", "0", page]


def run_once(jsprof, config, page, trace_path, timeout):
    cmd = command(jsprof, config, page, trace_path)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=environment(config))
    check_jit_options(proc, cmd)
    for line in proc.stdout.splitlines():
        if line.startswith("BENCH_RESULT "):
            return json.loads(line[len("BENCH_RESULT "):])
    raise SystemExit(
        f"no result from {' '.join(cmd)} (exit {proc.returncode}):\n"
        f"{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}"
    )


# Callgrind: instruction counts per (workload, config), independent of the
# machine's load. Function groups (exclusive instructions, by symbol name).
GROUPS = [
    ("interpreter profiler enter/exit", ("GeckoProfilerThread::enter", "GeckoProfilerThread::exit",
                                         "GeckoProfilerRuntime::profileString",
                                         "GeckoProfilerRuntime::insertScriptSource",
                                         "ProfilingStack::ensureCapacitySlow",
                                         "GeckoProfilerEntryMarker", "AutoGeckoProfilerEntry",
                                         "GeckoProfilerBaselineOSRMarker")),
    ("profile strings", ("allocProfileString", "ProfileStringMap", "profileString")),
    ("JIT discard (enable)", ("ReleaseAllJITCode", "ToggleBaselineProfiling",
                              "toggleProfilerInstrumentation", "JitcodeGlobalTable::setAllEntriesAsExpired")),
    ("sampler: signal handler", ("on_sample_signal", "walk_jit", "copy_profiling_stack", "copy_str",
                                 "ProfilingFrameIterator", "JSJitProfilingFrameIterator",
                                 "lookupForSampler")),
    ("sampler: resolution and traces", ("jsprof_sampler", "jsprof_resolve_jit", "GetProfiledFrames",
                                        "jsprof_script_sources", "GetProfilerScriptSources")),
    ("JIT perf spewer (source maps for the Gecko profiler)",
     ("PerfSpewer", "PCToLineNumber", "SourceLocationIterator", "BaselineCompilerHandler::line",
      "BaselineCompilerHandler::column", "JitCodeRecord")),
    ("Baseline compiler", ("BaselineCompiler", "BaselineCodeGen", "BaselineCompilerCodeGen")),
    ("Ion compiler", ("jit::CodeGenerator", "CodeGeneratorShared", "Warp", "LIRGenerator",
                      "MIRGenerator", "jit::Optimize", "BacktrackingAllocator", "IonCompile",
                      "MBasicBlock", "jit::M", "ValueNumberer", "jit::L")),
    ("C++ interpreter", ("js::Interpret", "js::RunScript", "js::InternalCallOrConstruct")),
    ("GC", ("js::gc::", "GCRuntime", "js::Nursery", "TenuringTracer", "GCMarker")),
]


SAMPLER_GROUPS = ("sampler: signal handler", "sampler: resolution and traces")


def count_samples(trace_path):
    """The number of samples in a trace the shell wrote (None without one)."""
    try:
        with open(trace_path) as f:
            return len(json.load(f).get("samples", []))
    except (OSError, ValueError):
        return None


def classify(symbol):
    if symbol.endswith("[???]"):
        # No object file: code SpiderMonkey generated at run time.
        return "JIT-compiled code (unnamed)"
    for group, needles in GROUPS:
        if any(n in symbol for n in needles):
            return group
    return "other"


def callgrind(jsprof, config, page, trace_path, out_file, timeout):
    cmd = ["valgrind", "--tool=callgrind", "--smc-check=all-non-file", "--error-limit=no",
           f"--callgrind-out-file={out_file}"] + command(jsprof, config, page, trace_path)
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                          env=environment(config))
    check_jit_options(proc, cmd)
    if not any(line.startswith("BENCH_RESULT ") for line in proc.stdout.splitlines()):
        raise SystemExit(f"no result from {' '.join(cmd)}:\n{proc.stdout[-2000:]}\n"
                         f"{proc.stderr[-3000:]}")
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=no", "--auto=no", "--threshold=100", out_file],
        capture_output=True, text=True, check=True).stdout
    total = 0
    groups = {}
    in_table = False
    for line in annotated.splitlines():
        stripped = line.strip()
        if stripped.endswith("PROGRAM TOTALS"):
            total = int(stripped.split()[0].replace(",", ""))
            continue
        if "file:function" in stripped:
            in_table = True
            continue
        if in_table and not stripped and groups:
            break  # the end of the function table
        if not in_table or not stripped or stripped.startswith("-"):
            continue
        parts = stripped.split(None, 1)
        try:
            count = int(parts[0].replace(",", ""))
        except ValueError:
            continue
        rest = parts[1] if len(parts) > 1 else ""
        # "(12.3%)  file:function [object]"
        if rest.startswith("("):
            rest = rest.split(")", 1)[1].strip()
        group = classify(rest)
        groups[group] = groups.get(group, 0) + count
    return total, groups


def callgrind_main(args, workloads, configs, root):
    pages = build_pages(root, workloads, args.iterations)
    loads = {w: p[:-len(".html")] + ".load.html" for w, p in pages.items()}
    trace_path = os.path.join(root, "trace.json")
    table = {}
    whole = {}
    samples = {}
    for w in workloads:
        for c in configs:
            out_file = os.path.join(root, f"callgrind.{w}.{c}.out")
            if os.path.exists(trace_path):
                os.remove(trace_path)
            total, groups = callgrind(args.jsprof, c, pages[w], trace_path, out_file,
                                      args.timeout * 20)
            samples[(w, c)] = count_samples(trace_path)
            if args.no_subtract:
                base_total, base_groups = 0, {}
            else:
                base_total, base_groups = callgrind(args.jsprof, c, loads[w], trace_path,
                                                    out_file + ".load", args.timeout * 20)
            work = {g: groups.get(g, 0) - base_groups.get(g, 0)
                    for g in set(groups) | set(base_groups)}
            table[(w, c)] = (total - base_total, work)
            whole[(w, c)] = groups
            log(f"callgrind {w} {c}: {total - base_total:,} instructions in the iterations")
    n = args.iterations or "default"
    what = "the whole process" if args.no_subtract else "the page's load subtracted"
    print(f"\nInstructions (callgrind) of the workload's iterations ({n} per page; {what})"
          f"{', JSPROF_BENCH_JIT=' + os.environ.get('JSPROF_BENCH_JIT', '') if os.environ.get('JSPROF_BENCH_JIT') else ''},"
          " per configuration, and the difference from `off` by group\n")
    for w in workloads:
        base_total, base_work = table[(w, "off")]
        print(f"{w}: off {base_total / 1e6:,.1f} M")
        for c in configs[1:]:
            total, work = table[(w, c)]
            print(f"  {c:>6}: {total / 1e6:,.1f} M  x{total / base_total:.3f}")
            n = samples.get((w, c))
            if n:
                # The sampler's own work per sample, from the whole run
                # (valgrind runs the program 30-100x slower, so a wall-clock
                # interval yields that many more samples than natively: the
                # per-sample figure is what carries over).
                mine = sum(whole[(w, c)].get(g, 0) for g in SAMPLER_GROUPS)
                print(f"          {n:,} samples; the sampler's signal handler and resolution: "
                      f"{mine / n:,.0f} instructions per sample")
            deltas = sorted(((work.get(g, 0) - base_work.get(g, 0), g)
                             for g in set(work) | set(base_work)), reverse=True)
            for d, g in deltas:
                if abs(d) >= 0.002 * base_total:
                    print(f"          {g:<34}{d / 1e6:>+12,.1f} M  ({d / base_total * 100:+.1f} %)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({f"{w}/{c}": v for (w, c), v in table.items()}, f, indent=1)


# --start: the session-start cost. Pages are served over HTTP (loopback) with
# a Document-Policy header; each configuration is (policy, Profiler started
# after the warm-up or not).
START_CONFIGS = {
    "none": (None, False),          # no policy, no Profiler: the baseline
    "eager-idle": ("js-profiling-mode=eager", False),
    "lazy": ("js-profiling-mode=lazy", True),
    "eager": ("js-profiling-mode=eager", True),
}
START_WARM = {"acorn": 2, "marked": 2, "typescript": 4, "oo": 4, "fib": 4}
START_AFTER = {"acorn": 2, "marked": 2, "typescript": 4, "oo": 4, "fib": 4}


def serve(root):
    """Serves `root` on a loopback port, with the Document-Policy header that
    the path's first segment names (`/lazy/x.html`, `/eager/x.html`)."""
    import functools
    import http.server
    import threading

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *a):
            pass

        def translate_path(self, path):
            segments = path.split("?", 1)[0].split("/")
            self.policy = None
            if len(segments) > 2 and segments[1] in ("lazy", "eager"):
                self.policy = f"js-profiling-mode={segments[1]}"
                path = "/" + "/".join(segments[2:])
            return super().translate_path(path)

        def end_headers(self):
            if getattr(self, "policy", None) and self.path.endswith(".html"):
                self.send_header("Document-Policy", self.policy)
            self.send_header("Cache-Control", "no-store")
            super().end_headers()

    server = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(Handler, directory=root))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def start_main(args, workloads, root):
    build_pages(root, workloads, 0)
    interval = args.start_interval
    for w in workloads:
        with open(os.path.join(root, f"{w}.html"), encoding="utf-8") as f:
            page = f.read()
        head = page.split("<script>var BENCH_ITERATIONS")[0]
        for with_profiler in (False, True):
            extra = (f"<script>var BENCH_WARM = {START_WARM[w]}, BENCH_AFTER = {START_AFTER[w]},"
                     f" START_INTERVAL = {interval if with_profiler else 0};</script>\n"
                     '<script src="harness.js"></script>\n')
            name = f"{w}.start{'-profiler' if with_profiler else ''}.html"
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(head + extra)
    server = serve(root)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    configs = list(START_CONFIGS)
    results = {w: {c: [] for c in configs} for w in workloads}
    load_start = loadavg()
    for r in range(args.rounds):
        for w in workloads:
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for c in order:
                policy, with_profiler = START_CONFIGS[c]
                prefix = "" if policy is None else "/" + policy.split("=")[1]
                url = f"{base}{prefix}/{w}.start{'-profiler' if with_profiler else ''}.html"
                proc = subprocess.run([args.jsprof, "--quiet", url], capture_output=True,
                                      text=True, timeout=args.timeout)
                line = next((l for l in proc.stdout.splitlines()
                             if l.startswith("BENCH_RESULT ")), None)
                if line is None:
                    raise SystemExit(f"no result from {url}:\n{proc.stdout[-2000:]}\n"
                                     f"{proc.stderr[-2000:]}")
                results[w][c].append(json.loads(line[len("BENCH_RESULT "):]))
        log(f"round {r + 1}/{args.rounds} done (load {loadavg():.1f})")
    server.shutdown()
    print(f"\nSession start ({interval} ms sessions), {args.rounds} interleaved rounds,"
          f" load {load_start:.1f} -> {loadavg():.1f}. Per workload: the iterations after the"
          " warm-up (first one, and all of them) as ratios of medians over `none` (no policy,"
          " no Profiler), 95 % bootstrap intervals; the constructor's duration and the time"
          " from `new Profiler()` to the first sample and to the first sample with a stack"
          " (medians, ms).\n")
    for w in workloads:
        warm = START_WARM[w]
        base_first = [x["times"][warm] for x in results[w]["none"]]
        base_all = [statistics.median(x["times"][warm:]) for x in results[w]["none"]]
        base_before = [statistics.median(x["times"][1:warm]) for x in results[w]["none"]]
        print(f"{w}: `none` first iteration after warm-up {statistics.median(base_first):.1f} ms")
        for c in configs[1:]:
            runs = results[w][c]
            first = [x["times"][warm] for x in runs]
            after = [statistics.median(x["times"][warm:]) for x in runs]
            before = [statistics.median(x["times"][1:warm]) for x in runs]
            rf = statistics.median(first) / statistics.median(base_first)
            lf, hf = bootstrap_ratio(base_first, first)
            ra = statistics.median(after) / statistics.median(base_all)
            la, ha = bootstrap_ratio(base_all, after)
            rb = statistics.median(before) / statistics.median(base_before)
            lb, hb = bootstrap_ratio(base_before, before)
            line = (f"  {c:<11} warm-up x{rb:.3f} [{lb:.3f}-{hb:.3f}]  first after"
                    f" x{rf:.3f} [{lf:.3f}-{hf:.3f}]  all after x{ra:.3f} [{la:.3f}-{ha:.3f}]")
            if START_CONFIGS[c][1]:
                construct = statistics.median(x["construct_ms"] for x in runs)
                firsts = [x["first_sample_ms"] for x in runs if x.get("first_sample_ms") is not None]
                stacks = [x["first_stack_ms"] for x in runs if x.get("first_stack_ms") is not None]
                line += (f"  new Profiler() {construct:.2f} ms, first sample"
                         f" {statistics.median(firsts) if firsts else float('nan'):.1f} ms, first stack"
                         f" {statistics.median(stacks) if stacks else float('nan'):.1f} ms")
            print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


def bootstrap_ratio(base, other, reps=4000, seed=1):
    rng = random.Random(seed)
    ratios = []
    for _ in range(reps):
        b = statistics.median(rng.choices(base, k=len(base)))
        o = statistics.median(rng.choices(other, k=len(other)))
        ratios.append(o / b)
    ratios.sort()
    return ratios[int(0.025 * reps)], ratios[int(0.975 * reps) - 1]


def config_label(config):
    """A configuration as the tables name it: `10 ms`, `10 ms-bk`, `inst`."""
    base = base_config(config)
    return config if base == "inst" else f"{base} ms{config[len(base):]}"


def bootstrap_median(values, reps=4000, seed=1):
    """The 95 % bootstrap interval of the median of `values`."""
    rng = random.Random(seed)
    medians = sorted(statistics.median(rng.choices(values, k=len(values)))
                     for _ in range(reps))
    return medians[int(0.025 * reps)], medians[int(0.975 * reps) - 1]


def loadavg():
    try:
        return os.getloadavg()[0]
    except OSError:
        return float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jsprof", required=True)
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("JSPROF_BENCH_ROUNDS", 8)))
    ap.add_argument("--workloads", default=",".join(ALL_WORKLOADS))
    ap.add_argument("--configs", default="off,10,1")
    ap.add_argument("--iterations", type=int, default=0)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--json", help="also write every measurement here")
    ap.add_argument("--keep", help="build the pages into this directory and keep them")
    ap.add_argument("--callgrind", action="store_true",
                    help="count instructions with valgrind's callgrind instead of timing"
                         " (one run per workload and configuration, plus one of the page's"
                         " load alone, which is subtracted)")
    ap.add_argument("--no-subtract", action="store_true",
                    help="--callgrind: count the whole process (no load-only run)")
    ap.add_argument("--start", action="store_true",
                    help="measure the session start instead: pages served over HTTP with a"
                         " lazy or eager Document-Policy, `new Profiler()` after a warm-up")
    ap.add_argument("--start-interval", type=int, default=10)
    args = ap.parse_args()
    workloads = [w for w in args.workloads.split(",") if w]
    for w in workloads:
        if w not in ALL_WORKLOADS:
            raise SystemExit(f"unknown workload {w} (known: {', '.join(ALL_WORKLOADS)})")
    configs = [c for c in args.configs.split(",") if c]
    if configs[0] != "off":
        raise SystemExit("the first configuration must be `off` (the baseline)")
    for c in configs:
        base = base_config(c)
        if base not in ("off", "inst") and not base.replace(".", "", 1).isdigit():
            raise SystemExit(f"unknown configuration {c} (off, inst, a number of ms,"
                             f" each optionally with {NO_BOOKKEEPING_SUFFIX} or"
                             f" {BOOKKEEPING_SUFFIX})")
    if args.rounds < 2:
        raise SystemExit("--rounds must be at least 2")

    tmp = tempfile.TemporaryDirectory()
    root = args.keep or tmp.name
    os.makedirs(root, exist_ok=True)
    if args.callgrind:
        callgrind_main(args, workloads, configs, root)
        return
    if args.start:
        start_main(args, workloads, root)
        return
    pages = build_pages(root, workloads, args.iterations)
    trace_path = os.path.join(tmp.name, "trace.json")
    jit = os.environ.get("JSPROF_BENCH_JIT", "")
    log(f"{args.rounds} rounds x {len(workloads)} workloads x {len(configs)} configs"
        f"{', JSPROF_BENCH_JIT=' + jit if jit else ''}, load {loadavg():.1f}")

    # results[w][c] = list of (steady median, first iteration) per process
    results = {w: {c: [] for c in configs} for w in workloads}
    raw = []
    load_start = loadavg()
    started = time.monotonic()
    for r in range(args.rounds):
        for w in workloads:
            order = configs[r % len(configs):] + configs[:r % len(configs)]
            for c in order:
                out = run_once(args.jsprof, c, pages[w], trace_path, args.timeout)
                times = out["times"]
                steady = statistics.median(times[1:]) if len(times) > 1 else times[0]
                results[w][c].append((steady, times[0]))
                raw.append({"round": r, "workload": w, "config": c, "times": times,
                            "check": out["check"], "load": loadavg()})
        log(f"round {r + 1}/{args.rounds} done ({time.monotonic() - started:.0f} s, "
            f"load {loadavg():.1f})")
    load_end = loadavg()

    print(f"\nReal-world profiling cost: {args.rounds} interleaved rounds, one process per run,"
          f" load {load_start:.1f} -> {load_end:.1f}"
          f"{' (JSPROF_BENCH_JIT=' + jit + ')' if jit else ''}")
    print("ratio of medians over `off` (95 % bootstrap interval); steady = median of the"
          " iterations after the first, per process\n")
    header = f"{'workload':<12}{'off (ms)':>10}"
    for c in configs[1:]:
        header += f"{config_label(c) + ' steady':>28}{config_label(c) + ' first':>28}"
    print(header)
    summary = {}
    for w in workloads:
        base = [s for s, _ in results[w]["off"]]
        base_first = [f for _, f in results[w]["off"]]
        line = f"{w:<12}{statistics.median(base):>10.1f}"
        summary[w] = {"off_ms": statistics.median(base)}
        for c in configs[1:]:
            steady = [s for s, _ in results[w][c]]
            first = [f for _, f in results[w][c]]
            rs = statistics.median(steady) / statistics.median(base)
            lo, hi = bootstrap_ratio(base, steady)
            rf = statistics.median(first) / statistics.median(base_first)
            lof, hif = bootstrap_ratio(base_first, first)
            line += f"{f'{rs:.3f} [{lo:.3f}-{hi:.3f}]':>28}{f'{rf:.3f} [{lof:.3f}-{hif:.3f}]':>28}"
            summary[w][c] = {"steady": [rs, lo, hi], "first": [rf, lof, hif]}
        print(line)
    # The machine's speed drifts between rounds (the `off` processes of one
    # run differ by 15-17 % here), and each round runs every configuration
    # back to back: the ratio within a round cancels that drift.
    print("\npaired: median over rounds of (steady of the configuration / steady of `off`"
          " in the same round), 95 % bootstrap interval over rounds\n")
    print(f"{'workload':<12}" + "".join(f"{config_label(c):>28}" for c in configs[1:]))
    for w in workloads:
        line = f"{w:<12}"
        for c in configs[1:]:
            ratios = [s / b for (s, _), (b, _) in zip(results[w][c], results[w]["off"])]
            m = statistics.median(ratios)
            lo, hi = bootstrap_median(ratios)
            line += f"{f'{m:.3f} [{lo:.3f}-{hi:.3f}]':>28}"
            summary[w][c]["paired"] = [m, lo, hi]
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"summary": summary, "runs": raw, "load": [load_start, load_end],
                       "jit": jit}, f, indent=1)


if __name__ == "__main__":
    main()
