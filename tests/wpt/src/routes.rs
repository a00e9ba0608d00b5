//! What the WPT server answers: request → response, independent of the
//! transport (see `server.rs`), so every rule is unit-tested without sockets.
//!
//! * `/resources/testharnessreport.js`: ours (reports results to the harness);
//! * `/common/redirect.py?location=URL[&status=30x]`: a redirect;
//! * `/resources/WebIDLParser.js`: rewritten to
//!   `/resources/webidl2/lib/webidl2.js`, as WPT's server does;
//! * files of the root, with `__dir__.headers` / `<file>.headers` applied and
//!   `.sub.` files substituted; then the third-party files (testharness.js
//!   and friends) when the root has no such file;
//! * `x.window.html` / `x.any.html` generated from `x.window.js` /
//!   `x.any.js`;
//! * the `pipe` query parameter: `sub`, `header(name,value)`,
//!   `status(code)`, `trickle(...)`, `|`-separated (CORS headers on any file:
//!   `?pipe=header(Access-Control-Allow-Origin,*)`; `trickle` delays the
//!   whole response by the sum of its `d<seconds>` steps instead of
//!   sending the body in timed chunks: what the tests that use it observe
//!   is a response arriving late);
//! * the Python handlers of HTML's script element directory
//!   (`html/semantics/scripting-1/the-script-element/`): `log.py`
//!   (`?sec=N&id=ID`, answers `log('ID')` after N seconds),
//!   `serve-with-content-type.py` (`?fn=FILE&ct=TYPE`, a file of that
//!   directory with that `Content-Type`) and
//!   `resources/load-error-events.py` (`?test=NAME`, a script that marks
//!   `NAME` executed, 404 unless NAME contains `_load`);
//! * `/resources/testdriver-vendor.js`: empty unless the root has one;
//! * other `.py` handlers: 501, named; anything else missing: 404.

use std::path::{Path, PathBuf};

use jsprof_test_server::headers;

use crate::config::Hosts;
use crate::report;
use crate::substitute::{self, query_param, Context};
use crate::wrappers::{self, Kind};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: String,
    /// Path and query, as received.
    pub target: String,
    pub headers: Vec<(String, String)>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn new(status: u16, content_type: &str, body: impl Into<Vec<u8>>) -> Self {
        Response {
            status,
            headers: vec![("Content-Type".into(), content_type.into())],
            body: body.into(),
        }
    }

    fn error(status: u16, message: impl AsRef<str>) -> Self {
        Response::new(
            status,
            "text/plain; charset=utf-8",
            format!("{}\n", message.as_ref()),
        )
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// Sets `name`, replacing any header of that name.
    pub fn set_header(&mut self, name: &str, value: &str) {
        self.headers.retain(|(n, _)| !n.eq_ignore_ascii_case(name));
        self.headers.push((name.to_owned(), value.to_owned()));
    }
}

#[derive(Debug, Clone)]
pub struct Routes {
    pub root: PathBuf,
    /// Served when the root lacks them: URL path → file.
    pub fallback: Vec<(String, PathBuf)>,
    pub hosts: Hosts,
    /// The two HTTP ports (the primary server's, then the second one's).
    pub http_ports: [u16; 2],
    pub https_ports: [u16; 2],
    pub timeout_multiplier: f64,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Pipe {
    Sub,
    Header(String, String),
    Status(u16),
    /// `trickle(...)`: the total of its `d<seconds>` steps.
    Trickle(std::time::Duration),
}

/// The longest delay a request may ask for (`trickle`, `log.py`), so that
/// a hostile query cannot hold a connection past the harness's timeouts.
const MAX_DELAY: std::time::Duration = std::time::Duration::from_secs(10);

impl Routes {
    /// Answers `request` received on `scheme` (`http`/`https`).
    pub fn respond(&self, request: &Request, scheme: &str) -> Response {
        self.route(request, scheme).unwrap_or_else(|e| e)
    }

    fn route(&self, request: &Request, scheme: &str) -> Result<Response, Response> {
        if request.method != "GET" && request.method != "HEAD" && request.method != "POST" {
            return Err(Response::error(
                405,
                format!("method {} not supported", request.method),
            ));
        }
        let (raw_path, query) = request
            .target
            .split_once('?')
            .unwrap_or((request.target.as_str(), ""));
        let path = decode_path(raw_path)?;
        let pipes = match query_param(query, "pipe") {
            Some(spec) => parse_pipes(&spec).map_err(|e| Response::error(500, e))?,
            None => Vec::new(),
        };
        let (hostname, port) = self.request_host(request, scheme);
        let ctx = Context {
            hosts: &self.hosts,
            http_ports: self.http_ports,
            https_ports: self.https_ports,
            scheme,
            hostname: &hostname,
            port,
            path: raw_path,
            query,
            headers: &request.headers,
        };

        let mut response = match path.as_str() {
            "/resources/testharnessreport.js" => Response::new(
                200,
                content_type("x.js"),
                report::testharnessreport_js(self.timeout_multiplier),
            ),
            "/common/redirect.py" => redirect(query)?,
            _ if path.starts_with(SCRIPT_ELEMENT_DIR) && path.ends_with(".py") => {
                self.script_element_handler(&path, query)?
            }
            "/resources/WebIDLParser.js" => {
                self.static_or_generated("/resources/webidl2/lib/webidl2.js", &pipes, &ctx)?
            }
            _ => self.static_or_generated(&path, &pipes, &ctx)?,
        };
        for pipe in &pipes {
            match pipe {
                Pipe::Header(name, value) => response.set_header(name, value),
                Pipe::Status(code) => response.status = *code,
                Pipe::Trickle(delay) => std::thread::sleep(*delay),
                Pipe::Sub => {}
            }
        }
        if request.method == "HEAD" {
            let length = response.body.len().to_string();
            response.set_header("Content-Length", &length);
            response.body.clear();
        }
        Ok(response)
    }

    fn request_host(&self, request: &Request, scheme: &str) -> (String, u16) {
        let default_port = if scheme == "https" {
            self.https_ports[0]
        } else {
            self.http_ports[0]
        };
        let host = request
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case("host"))
            .map(|(_, v)| v.as_str());
        match host {
            Some(h) => match h.rsplit_once(':') {
                Some((name, port)) => (name.to_owned(), port.parse().unwrap_or(default_port)),
                None => (h.to_owned(), default_port),
            },
            None => (self.hosts.primary.clone(), default_port),
        }
    }

    /// The Python handlers of HTML's script element directory that its
    /// tests need (`path` starts with [`SCRIPT_ELEMENT_DIR`]).
    fn script_element_handler(&self, path: &str, query: &str) -> Result<Response, Response> {
        let param = |name: &str| {
            query_param(query, name)
                .ok_or_else(|| Response::error(400, format!("{path} needs ?{name}=")))
        };
        match &path[SCRIPT_ELEMENT_DIR.len()..] {
            "log.py" => {
                let id: i64 = param("id")?
                    .parse()
                    .map_err(|_| Response::error(400, "log.py: id is not an integer"))?;
                let sec: u64 = param("sec")?
                    .parse()
                    .map_err(|_| Response::error(400, "log.py: sec is not an integer"))?;
                std::thread::sleep(std::time::Duration::from_secs(sec).min(MAX_DELAY));
                Ok(Response::new(
                    200,
                    "text/javascript",
                    format!("log('{id}')"),
                ))
            }
            "serve-with-content-type.py" => {
                let file = param("fn")?;
                let content_type = param("ct")?;
                if file
                    .split('/')
                    .any(|s| s.is_empty() || s == ".." || s == ".")
                {
                    return Err(Response::error(400, format!("bad file name `{file}`")));
                }
                let on_disk = self.root.join(&SCRIPT_ELEMENT_DIR[1..]).join(&file);
                let body = std::fs::read(&on_disk)
                    .map_err(|_| Response::error(400, format!("{file} not found")))?;
                Ok(Response::new(200, &content_type, body))
            }
            "resources/load-error-events.py" => {
                let test = param("test")?;
                if test.is_empty() || !test.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                    return Err(Response::error(400, format!("bad test name `{test}`")));
                }
                Ok(if test.contains("_load") {
                    Response::new(
                        200,
                        "text/javascript",
                        format!("\"use strict\"; {test}.executed = true;"),
                    )
                } else {
                    Response::new(
                        404,
                        "text/javascript",
                        format!(
                            "\"use strict\"; {test}.test.step(function() {{ \
                             assert_unreached(\"404 script should not be executed\"); }});"
                        ),
                    )
                })
            }
            _ => Err(Response::error(
                501,
                format!("{path}: Python handlers are not supported by the jsprof WPT server"),
            )),
        }
    }

    fn static_or_generated(
        &self,
        path: &str,
        pipes: &[Pipe],
        ctx: &Context,
    ) -> Result<Response, Response> {
        let on_disk = self.root.join(&path[1..]);
        if on_disk.is_file() {
            return serve_file(&on_disk, pipes, ctx);
        }
        if let Some((_, file)) = self.fallback.iter().find(|(url, _)| url == path) {
            return serve_file(file, pipes, ctx);
        }
        if path == "/resources/testdriver-vendor.js" {
            // WPT runners serve their browser's vendor file here; ours has
            // nothing to add to testdriver.js.
            return Ok(Response::new(
                200,
                content_type("x.js"),
                "// no vendor hooks\n",
            ));
        }
        if let Some((kind, js_path)) = Kind::from_html_path(path) {
            let js_on_disk = self.root.join(&js_path[1..]);
            if js_on_disk.is_file() {
                return generated_page(kind, &js_path, &js_on_disk);
            }
        }
        if on_disk.is_dir() {
            return Err(Response::error(404, format!("{path} is a directory")));
        }
        if path.ends_with(".py") {
            return Err(Response::error(
                501,
                format!("{path}: Python handlers are not supported by the jsprof WPT server"),
            ));
        }
        Err(Response::error(404, format!("{path} not found")))
    }
}

/// Percent-decodes a URL path and refuses anything leaving the root.
fn decode_path(raw: &str) -> Result<String, Response> {
    if !raw.starts_with('/') {
        return Err(Response::error(400, format!("bad request target `{raw}`")));
    }
    let decoded = percent_encoding::percent_decode_str(raw)
        .decode_utf8()
        .map_err(|_| Response::error(400, "path is not UTF-8"))?
        .into_owned();
    if decoded
        .split('/')
        .any(|segment| segment == ".." || segment.contains('\\') || segment.contains('\0'))
    {
        return Err(Response::error(
            400,
            format!("path `{decoded}` is not allowed"),
        ));
    }
    Ok(decoded)
}

fn parse_pipes(spec: &str) -> Result<Vec<Pipe>, String> {
    spec.split('|')
        .filter(|p| !p.trim().is_empty())
        .map(|p| {
            let p = p.trim();
            if p == "sub" {
                return Ok(Pipe::Sub);
            }
            let (name, args) = p
                .strip_suffix(')')
                .and_then(|p| p.split_once('('))
                .ok_or_else(|| format!("unsupported pipe `{p}`"))?;
            match name {
                "header" => {
                    let (n, v) = args
                        .split_once(',')
                        .ok_or_else(|| format!("pipe `{p}` needs header(name,value)"))?;
                    Ok(Pipe::Header(n.trim().to_owned(), v.trim().to_owned()))
                }
                "trickle" => {
                    // Steps are `N` (bytes: the body is sent whole here) or
                    // `dS` (a delay of S seconds); a repeat count `rN` is
                    // not supported.
                    let mut total = std::time::Duration::ZERO;
                    for step in args.split(':').map(str::trim) {
                        if let Some(secs) = step.strip_prefix('d') {
                            let secs: f64 = secs
                                .parse()
                                .ok()
                                .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                                .ok_or_else(|| format!("pipe `{p}`: bad delay `{step}`"))?;
                            total += std::time::Duration::from_secs_f64(secs.min(10.0));
                        } else if step.parse::<u64>().is_err() {
                            return Err(format!("pipe `{p}`: unsupported step `{step}`"));
                        }
                    }
                    Ok(Pipe::Trickle(total.min(MAX_DELAY)))
                }
                "status" => args
                    .trim()
                    .parse()
                    .ok()
                    .filter(|code| (100..600).contains(code))
                    .map(Pipe::Status)
                    .ok_or_else(|| format!("pipe `{p}` needs a status code")),
                _ => Err(format!("unsupported pipe `{p}`")),
            }
        })
        .collect()
}

/// The URL path of HTML's script element test directory, whose Python
/// handlers are answered here.
const SCRIPT_ELEMENT_DIR: &str = "/html/semantics/scripting-1/the-script-element/";

fn redirect(query: &str) -> Result<Response, Response> {
    let location = query_param(query, "location")
        .ok_or_else(|| Response::error(400, "redirect.py needs ?location="))?;
    let status = match query_param(query, "status") {
        Some(s) => s
            .parse::<u16>()
            .ok()
            .filter(|c| matches!(c, 301 | 302 | 303 | 307 | 308))
            .ok_or_else(|| Response::error(400, format!("bad redirect status `{s}`")))?,
        None => 302,
    };
    let mut response = Response::error(status, format!("redirecting to {location}"));
    response.set_header("Location", &location);
    response.set_header("Cache-Control", "no-store");
    Ok(response)
}

fn serve_file(file: &Path, pipes: &[Pipe], ctx: &Context) -> Result<Response, Response> {
    let name = file.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let extra = headers::for_file(file).map_err(|e| Response::error(500, e))?;
    let mut body = std::fs::read(file)
        .map_err(|e| Response::error(500, format!("cannot read {}: {e}", file.display())))?;
    if name.contains(".sub.") || pipes.contains(&Pipe::Sub) {
        let text = String::from_utf8(body)
            .map_err(|_| Response::error(500, format!("{name}: substitution needs UTF-8")))?;
        body = substitute::substitute(&text, ctx)
            .map_err(|e| Response::error(500, format!("{name}: {e}")))?
            .into_bytes();
    }
    let mut response = Response::new(200, content_type(name), body);
    for (n, v) in extra {
        response.set_header(&n, &v);
    }
    Ok(response)
}

fn generated_page(kind: Kind, js_path: &str, js_file: &Path) -> Result<Response, Response> {
    let source = std::fs::read_to_string(js_file)
        .map_err(|e| Response::error(500, format!("cannot read {}: {e}", js_file.display())))?;
    if kind == Kind::Any && !wrappers::any_runs_in_window(&wrappers::parse_meta(&source)) {
        return Err(Response::error(
            404,
            format!("{js_path} does not run in a window"),
        ));
    }
    let extra = headers::for_file(js_file).map_err(|e| Response::error(500, e))?;
    let mut response = Response::new(
        200,
        content_type("x.html"),
        wrappers::generate(kind, js_path, &source),
    );
    for (n, v) in extra {
        response.set_header(&n, &v);
    }
    Ok(response)
}

pub fn content_type(name: &str) -> &'static str {
    let ext = name.rsplit('.').next().unwrap_or("").to_ascii_lowercase();
    match ext.as_str() {
        "html" | "htm" => "text/html; charset=utf-8",
        "xhtml" | "xht" => "application/xhtml+xml; charset=utf-8",
        // No charset, as wptserve serves scripts: a script element's
        // `charset` attribute (else the document's encoding) decides.
        "js" | "mjs" => "text/javascript",
        "css" => "text/css; charset=utf-8",
        "json" => "application/json",
        "txt" | "ini" | "headers" => "text/plain; charset=utf-8",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "wasm" => "application/wasm",
        _ => "application/octet-stream",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Fixture {
        _dir: tempfile::TempDir,
        routes: Routes,
    }

    fn fixture() -> Fixture {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("root");
        let files: &[(&str, &str)] = &[
            ("a/__dir__.headers", "X-Dir: 1\n"),
            ("a/page.html", "<p>hi</p>"),
            ("a/page.html.headers", "Document-Policy: js-profiling\n"),
            (
                "a/t.sub.html",
                "{{hosts[alt][]}}:{{ports[https][0]}} {{location[scheme]}}",
            ),
            ("a/bad.sub.js", "{{nope}}"),
            (
                "a/x.window.js",
                "// META: script=/common/h.js\ntest(() => {});\n",
            ),
            ("a/x.window.js.headers", "Document-Policy: js-profiling\n"),
            ("a/w.any.js", "// META: global=worker\n"),
            ("a/broken.html", ""),
            ("a/broken.html.headers", "no colon here\n"),
            ("resources/testharness.js", "// root's own harness"),
        ];
        for (path, text) in files {
            let p = root.join(path);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        let script_dir = root.join("html/semantics/scripting-1/the-script-element");
        std::fs::create_dir_all(&script_dir).unwrap();
        std::fs::write(script_dir.join("s.js"), b"\xe6;").unwrap();
        let third = dir.path().join("webidl2.js");
        std::fs::write(&third, "// webidl2").unwrap();
        let gc = dir.path().join("gc.js");
        std::fs::write(&gc, "// gc").unwrap();
        let harness = dir.path().join("testharness.js");
        std::fs::write(&harness, "// npm harness").unwrap();
        let routes = Routes {
            root,
            fallback: vec![
                ("/resources/webidl2/lib/webidl2.js".into(), third),
                ("/common/gc.js".into(), gc),
                ("/resources/testharness.js".into(), harness),
            ],
            hosts: Hosts::default(),
            http_ports: [8000, 8001],
            https_ports: [8443, 8444],
            timeout_multiplier: 3.0,
        };
        Fixture { _dir: dir, routes }
    }

    fn get(f: &Fixture, target: &str) -> Response {
        f.routes.respond(
            &Request {
                method: "GET".into(),
                target: target.into(),
                headers: vec![("Host".into(), "web-platform.test:8443".into())],
            },
            "https",
        )
    }

    fn body(r: &Response) -> String {
        String::from_utf8(r.body.clone()).unwrap()
    }

    #[test]
    fn script_element_handlers() {
        let f = fixture();
        let dir = "/html/semantics/scripting-1/the-script-element";
        let r = get(&f, &format!("{dir}/log.py?sec=0&id=7"));
        assert_eq!((r.status, body(&r).as_str()), (200, "log('7')"));
        assert_eq!(r.header("Content-Type"), Some("text/javascript"));
        assert_eq!(get(&f, &format!("{dir}/log.py?sec=0&id=x")).status, 400);
        assert_eq!(get(&f, &format!("{dir}/log.py?id=1")).status, 400);
        let r = get(
            &f,
            &format!("{dir}/serve-with-content-type.py?fn=s.js&ct=text/javascript%3Bcharset=windows-1250"),
        );
        assert_eq!(r.status, 200);
        assert_eq!(r.body, b"\xe6;");
        assert_eq!(
            r.header("Content-Type"),
            Some("text/javascript;charset=windows-1250")
        );
        for bad in ["../../a/page.html", "missing.js", "/etc/passwd"] {
            let r = get(
                &f,
                &format!("{dir}/serve-with-content-type.py?fn={bad}&ct=x"),
            );
            assert_eq!(r.status, 400, "{bad}");
        }
        let r = get(
            &f,
            &format!("{dir}/resources/load-error-events.py?test=t1_load"),
        );
        assert_eq!(r.status, 200);
        assert_eq!(body(&r), "\"use strict\"; t1_load.executed = true;");
        let r = get(
            &f,
            &format!("{dir}/resources/load-error-events.py?test=t2_error"),
        );
        assert_eq!(r.status, 404);
        let r = get(
            &f,
            &format!("{dir}/resources/load-error-events.py?test=a.b"),
        );
        assert_eq!(r.status, 400);
        assert_eq!(get(&f, &format!("{dir}/other.py")).status, 501);
    }

    #[test]
    fn trickle_delays_the_response() {
        let f = fixture();
        let start = std::time::Instant::now();
        let r = get(&f, "/a/page.html?pipe=trickle(d0.2)");
        assert_eq!(body(&r), "<p>hi</p>");
        assert!(start.elapsed() >= std::time::Duration::from_millis(200));
        assert_eq!(get(&f, "/a/page.html?pipe=trickle(100:d0)").status, 200);
        assert_eq!(get(&f, "/a/page.html?pipe=trickle(dx)").status, 500);
        assert_eq!(get(&f, "/a/page.html?pipe=trickle(r2)").status, 500);
    }

    #[test]
    fn static_files_get_their_headers() {
        let f = fixture();
        let r = get(&f, "/a/page.html");
        assert_eq!(r.status, 200);
        assert_eq!(body(&r), "<p>hi</p>");
        assert_eq!(r.header("content-type"), Some("text/html; charset=utf-8"));
        assert_eq!(r.header("X-Dir"), Some("1"));
        assert_eq!(r.header("Document-Policy"), Some("js-profiling"));
    }

    #[test]
    fn sub_files_are_substituted() {
        let f = fixture();
        let r = get(&f, "/a/t.sub.html");
        assert_eq!(body(&r), "not-web-platform.test:8443 https");
        let bad = get(&f, "/a/bad.sub.js");
        assert_eq!(bad.status, 500);
        assert!(body(&bad).contains("unsupported substitution"));
    }

    #[test]
    fn malformed_headers_file_is_a_500_naming_it() {
        let f = fixture();
        let r = get(&f, "/a/broken.html");
        assert_eq!(r.status, 500);
        assert!(body(&r).contains("broken.html.headers:1"), "{}", body(&r));
    }

    #[test]
    fn window_js_is_wrapped_with_the_js_headers() {
        let f = fixture();
        let r = get(&f, "/a/x.window.html");
        assert_eq!(r.status, 200);
        assert!(body(&r).contains("<script src=\"/a/x.window.js\"></script>"));
        assert!(body(&r).contains("/common/h.js"));
        assert_eq!(r.header("Document-Policy"), Some("js-profiling"));
        assert_eq!(get(&f, "/a/w.any.html").status, 404);
        assert_eq!(get(&f, "/a/none.window.html").status, 404);
    }

    #[test]
    fn harness_files() {
        let f = fixture();
        let report = get(&f, "/resources/testharnessreport.js");
        assert!(body(&report).contains("timeout_multiplier: 3"));
        assert_eq!(
            body(&get(&f, "/resources/testharness.js")),
            "// root's own harness"
        );
        assert_eq!(body(&get(&f, "/resources/WebIDLParser.js")), "// webidl2");
        assert_eq!(body(&get(&f, "/common/gc.js")), "// gc");
        assert_eq!(get(&f, "/resources/testdriver-vendor.js").status, 200);
    }

    #[test]
    fn redirects() {
        let f = fixture();
        let r = get(
            &f,
            "/common/redirect.py?location=https%3A%2F%2Fx.test%2Fa.js&status=307",
        );
        assert_eq!(r.status, 307);
        assert_eq!(r.header("location"), Some("https://x.test/a.js"));
        assert_eq!(get(&f, "/common/redirect.py?location=/a").status, 302);
        assert_eq!(get(&f, "/common/redirect.py").status, 400);
        assert_eq!(
            get(&f, "/common/redirect.py?location=/a&status=200").status,
            400
        );
    }

    #[test]
    fn pipes() {
        let f = fixture();
        let r = get(
            &f,
            "/a/page.html?pipe=header(Access-Control-Allow-Origin,*)|status(203)",
        );
        assert_eq!(r.status, 203);
        assert_eq!(r.header("access-control-allow-origin"), Some("*"));
        let sub = get(&f, "/a/x.window.js?pipe=sub");
        assert_eq!(sub.status, 200);
        assert_eq!(get(&f, "/a/page.html?pipe=gzip").status, 500);
        assert_eq!(get(&f, "/a/page.html?pipe=status(99)").status, 500);
    }

    #[test]
    fn missing_traversal_python_and_methods() {
        let f = fixture();
        assert_eq!(get(&f, "/a/nothing.html").status, 404);
        assert_eq!(get(&f, "/a").status, 404);
        assert_eq!(get(&f, "/a/../../etc/passwd").status, 400);
        assert_eq!(get(&f, "/a/%2e%2e/%2e%2e/x").status, 400);
        assert_eq!(get(&f, "/x/handler.py").status, 501);
        let put = f.routes.respond(
            &Request {
                method: "PUT".into(),
                target: "/a/page.html".into(),
                headers: vec![],
            },
            "http",
        );
        assert_eq!(put.status, 405);
        let head = f.routes.respond(
            &Request {
                method: "HEAD".into(),
                target: "/a/page.html".into(),
                headers: vec![],
            },
            "http",
        );
        assert_eq!(head.status, 200);
        assert!(head.body.is_empty());
        assert_eq!(head.header("content-length"), Some("9"));
    }
}
