"""Records tests/data/chromium.json: serves page.html with
`Document-Policy: js-profiling` on localhost, loads it in headless Chromium,
and saves the ProfilerTrace the page posts back.

    python3 record.py [/usr/bin/chromium]
"""
import http.server
import os
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "data", "chromium.json")
received = threading.Event()


class Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, directory=HERE, **kwargs)

    def end_headers(self):
        self.send_header("Document-Policy", "js-profiling")
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_POST(self):
        body = self.rfile.read(int(self.headers["Content-Length"]))
        if body.startswith(b"ERROR"):
            print(body.decode(), file=sys.stderr)
        else:
            with open(OUT, "wb") as f:
                f.write(body)
        self.send_response(204)
        self.end_headers()
        received.set()

    def log_message(self, *args):
        pass


def main():
    chromium = sys.argv[1] if len(sys.argv) > 1 else "/usr/bin/chromium"
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}/page.html"
    with tempfile.TemporaryDirectory() as profile_dir:
        browser = subprocess.Popen([
            chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
            "--no-first-run", "--disable-background-networking",
            "--disable-component-update", "--disable-sync",
            f"--user-data-dir={profile_dir}", "--remote-debugging-port=0", url,
        ], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            ok = received.wait(60)
        finally:
            browser.terminate()
            browser.wait()
    server.shutdown()
    if not ok:
        sys.exit("no trace was posted within 60 s")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
