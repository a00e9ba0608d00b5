"""Opens files in the speedscope app (the npm package's dist/release) in
headless Chromium and checks that speedscope imported them: the page title
becomes "NAME - speedscope" only after a successful import, and the flame
chart canvas is there.

    python3 speedscope.py NODE_MODULES CHROMIUM FILE...
"""
import functools
import http.server
import os
import re
import subprocess
import sys
import tempfile
import threading


def main():
    modules, chromium, *files = sys.argv[1:]
    app = os.path.join(modules, "speedscope", "dist", "release")
    with tempfile.TemporaryDirectory() as root:
        os.symlink(app, os.path.join(root, "app"))
        for f in files:
            os.symlink(os.path.abspath(f), os.path.join(root, os.path.basename(f)))
        handler = functools.partial(QuietHandler, directory=root)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        failures = 0
        for f in files:
            name = os.path.basename(f)
            base = f"http://127.0.0.1:{server.server_port}"
            url = f"{base}/app/index.html#profileURL={base}/{name}"
            with tempfile.TemporaryDirectory() as profile_dir:
                dom = subprocess.run([
                    chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                    "--no-first-run", "--disable-background-networking",
                    "--disable-component-update", "--disable-sync",
                    f"--user-data-dir={profile_dir}", "--virtual-time-budget=10000",
                    "--dump-dom", url,
                ], capture_output=True, text=True, timeout=120).stdout
            title = re.search(r"<title>(.*?)</title>", dom, re.S)
            title = title.group(1).strip() if title else ""
            ok = title.endswith("- speedscope") and "<canvas" in dom
            print(f"{name}: speedscope title {title!r}{'' if ok else ' FAIL'}")
            failures += not ok
        server.shutdown()
    sys.exit(1 if failures else 0)


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


if __name__ == "__main__":
    main()
