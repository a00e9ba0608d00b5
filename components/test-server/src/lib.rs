//! A loopback HTTP and HTTPS server for tests: a dev-dependency of the
//! crates whose tests fetch over HTTP (and a dependency of the WPT
//! harness), kept out of `jsprof-net` so that its TLS certificate
//! generation (`rcgen`) and request parser (`httparse`) are never part of
//! the shell.
//!
//! [`TestServer::start`] binds two ephemeral ports on 127.0.0.1 only, one
//! plain HTTP and one HTTPS with a certificate signed by a CA generated at
//! start ([`TestServer::ca_pem`], [`TestServer::ca_file`]). The certificate
//! is valid for `web-platform.test`, `not-web-platform.test`, their
//! subdomains, `localhost`, `127.0.0.1`, `::1` and any
//! [`TestServerBuilder::host`]; [`TestServer::host_rules`] maps those names
//! to 127.0.0.1, so `http://www.web-platform.test:<port>/` and
//! `http://not-web-platform.test:<port>/` are two origins on one server.
//!
//! Requests are answered by the handler registered for their path
//! ([`TestServer::route`]: a closure from [`RecordedRequest`] to
//! [`TestResponse`]), else by a file under the static root, else 404. Every
//! request is recorded ([`TestServer::requests`]). The server stops when
//! dropped.
//!
//! ```
//! use jsprof_test_server::{TestResponse, TestServer};
//! use jsprof_net::Fetcher;
//!
//! let server = TestServer::start().unwrap();
//! server.route("/hello", |_| TestResponse::ok("hi").with_content_type("text/plain"));
//! server.route("/old", |_| TestResponse::redirect(302, "/hello"));
//! let fetcher = Fetcher::new(server.net_config()).unwrap();
//! let url = server.https_url("www.web-platform.test", "/old");
//! let followed = fetcher.fetch_following(&url, &[]).unwrap();
//! assert_eq!(followed.response.body, b"hi");
//! assert_eq!(server.requests().len(), 2);
//! ```
//!
//! Limits, so a test can neither hang nor flood: 64 connections at a time
//! (more are closed at once), 100 requests per connection, 64 KiB of request
//! head, 16 MiB of request body (`Content-Length` only), a connection idle
//! for 5 s is closed, a stall lasts at most 30 s, and the log keeps the last
//! 10,000 requests.
//!
//! Static files get the headers of their `.headers` sidecars, parsed by
//! [`headers`], the one parser the WPT harness uses too: a malformed line
//! is a 500 whose body names the file and the line, never a header
//! silently dropped.

#![forbid(unsafe_code)]

pub mod headers;

/// The directory of the crate whose tests (or harness) run, read at run
/// time (`CARGO_MANIFEST_DIR`, which cargo sets for the checkout being
/// tested), else `compiled_in` (the caller's `env!("CARGO_MANIFEST_DIR")`):
/// the compiled-in path is the checkout that built the binary, which a
/// target directory shared between checkouts (README.md) may have taken
/// from another, since deleted, one.
pub fn manifest_dir(compiled_in: &str) -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR").map_or_else(|| PathBuf::from(compiled_in), PathBuf::from)
}

use std::collections::{HashMap, VecDeque};
use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError, RwLock};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rcgen::{BasicConstraints, CertificateParams, DnType, IsCa, Issuer, KeyPair, KeyUsagePurpose};
use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use url::Url;

use jsprof_net::{content_type_for_path, HostRules, NetConfig};

const MAX_CONNECTIONS: usize = 64;
const MAX_REQUESTS_PER_CONNECTION: usize = 100;
const MAX_HEAD: usize = 64 * 1024;
const MAX_REQUEST_BODY: usize = 16 * 1024 * 1024;
const IDLE_TIMEOUT: Duration = Duration::from_secs(5);
const POLL: Duration = Duration::from_millis(20);
const MAX_STALL: Duration = Duration::from_secs(30);
const MAX_LOG: usize = 10_000;

/// The host names the certificate and [`TestServer::host_rules`] cover
/// unless more are added: WPT's two registrable domains and their
/// subdomains.
pub const DEFAULT_HOSTS: [&str; 4] = [
    "web-platform.test",
    "*.web-platform.test",
    "not-web-platform.test",
    "*.not-web-platform.test",
];

/// A request the server received.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedRequest {
    /// `"http"` or `"https"`.
    pub scheme: &'static str,
    /// The method, e.g. `GET`.
    pub method: String,
    /// The request target's path, e.g. `/a/b.js` (not percent-decoded).
    pub path: String,
    /// The query without `?`, if any.
    pub query: Option<String>,
    /// The header lines as sent (name case kept; values decoded lossily).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl RecordedRequest {
    /// The first value of a header, by case-insensitive name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// All values of a header, in order.
    pub fn header_all(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The `Host` header.
    pub fn host(&self) -> Option<&str> {
        self.header("Host")
    }
}

/// What a handler answers. Headers are written exactly as given (case,
/// order, duplicates); `Content-Length` is added unless given.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TestResponse {
    /// The status code.
    pub status: u16,
    /// The reason phrase; the code's usual one if `None`.
    pub reason: Option<String>,
    /// The header lines.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
    /// Wait this long before sending the status line (capped at 30 s).
    pub stall_before_headers: Option<Duration>,
    /// Wait this long between the headers and the body (capped at 30 s).
    pub stall_before_body: Option<Duration>,
}

impl TestResponse {
    /// An empty response with this status.
    pub fn new(status: u16) -> Self {
        TestResponse {
            status,
            reason: None,
            headers: Vec::new(),
            body: Vec::new(),
            stall_before_headers: None,
            stall_before_body: None,
        }
    }

    /// 200 with this body.
    pub fn ok(body: impl Into<Vec<u8>>) -> Self {
        TestResponse::new(200).with_body(body)
    }

    /// 404 with a short text body.
    pub fn not_found() -> Self {
        TestResponse::new(404)
            .with_content_type("text/plain")
            .with_body("not found")
    }

    /// A redirect (`status` should be 301, 302, 303, 307 or 308) to
    /// `location` (absolute or relative, sent as is).
    pub fn redirect(status: u16, location: &str) -> Self {
        TestResponse::new(status).with_header("Location", location)
    }

    /// Appends a header line.
    pub fn with_header(mut self, name: &str, value: &str) -> Self {
        self.headers.push((name.to_owned(), value.to_owned()));
        self
    }

    /// Appends `Content-Type`.
    pub fn with_content_type(self, content_type: &str) -> Self {
        self.with_header("Content-Type", content_type)
    }

    /// Sets the body.
    pub fn with_body(mut self, body: impl Into<Vec<u8>>) -> Self {
        self.body = body.into();
        self
    }

    /// Sets the reason phrase.
    pub fn with_reason(mut self, reason: &str) -> Self {
        self.reason = Some(reason.to_owned());
        self
    }

    /// Appends `Access-Control-Allow-Origin: <origin>` (`*` or a serialized
    /// origin).
    pub fn with_cors(self, origin: &str) -> Self {
        self.with_header("Access-Control-Allow-Origin", origin)
    }

    /// Appends `Access-Control-Allow-Origin: <origin>` and
    /// `Access-Control-Allow-Credentials: true`.
    pub fn with_cors_credentials(self, origin: &str) -> Self {
        self.with_cors(origin)
            .with_header("Access-Control-Allow-Credentials", "true")
    }

    /// Echoes the request's `Origin` as `Access-Control-Allow-Origin` (and
    /// allows credentials) if it has one.
    pub fn with_cors_echo(self, request: &RecordedRequest) -> Self {
        match request.header("Origin") {
            Some(origin) => self.with_cors_credentials(origin),
            None => self,
        }
    }

    /// Waits before sending anything.
    pub fn stall_before_headers(mut self, duration: Duration) -> Self {
        self.stall_before_headers = Some(duration);
        self
    }

    /// Sends the headers, then waits before the body.
    pub fn stall_before_body(mut self, duration: Duration) -> Self {
        self.stall_before_body = Some(duration);
        self
    }
}

type Handler = Arc<dyn Fn(&RecordedRequest) -> TestResponse + Send + Sync>;

struct Shared {
    routes: RwLock<HashMap<String, Handler>>,
    static_root: Option<PathBuf>,
    log: Mutex<VecDeque<RecordedRequest>>,
    shutdown: AtomicBool,
    connections: AtomicUsize,
    accepted: AtomicUsize,
    tls: Arc<rustls::ServerConfig>,
}

/// Configures a [`TestServer`].
#[derive(Default)]
pub struct TestServerBuilder {
    static_root: Option<PathBuf>,
    hosts: Vec<String>,
    routes: Vec<(String, Handler)>,
}

impl TestServerBuilder {
    /// Serves the files under `root` for paths no handler takes
    /// (`/dir/` serves `dir/index.html`), with a `Content-Type` from the
    /// extension and, as wptserve does, the headers listed in the
    /// directory's `__dir__.headers` and the file's `<name>.headers`
    /// (`Name: value` lines, see [`headers`]; a `Content-Type` there
    /// replaces the guess; a malformed line makes the answer a 500 naming
    /// the file and the line).
    pub fn static_dir(mut self, root: impl Into<PathBuf>) -> Self {
        self.static_root = Some(root.into());
        self
    }

    /// Adds a host name (or `*.` pattern, or IP address) to the certificate
    /// and to [`TestServer::host_rules`].
    pub fn host(mut self, host: &str) -> Self {
        self.hosts.push(host.to_owned());
        self
    }

    /// Registers a handler; see [`TestServer::route`].
    pub fn route(
        mut self,
        path: &str,
        handler: impl Fn(&RecordedRequest) -> TestResponse + Send + Sync + 'static,
    ) -> Self {
        self.routes.push((path.to_owned(), Arc::new(handler)));
        self
    }

    /// Generates the certificates, binds the ports and starts serving.
    pub fn start(self) -> io::Result<TestServer> {
        let mut hosts: Vec<String> = DEFAULT_HOSTS.iter().map(|h| (*h).to_owned()).collect();
        hosts.extend(self.hosts);
        let certs = Certificates::generate(&hosts)?;
        let tls = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(io::Error::other)?
        .with_no_client_auth()
        .with_single_cert(certs.chain.clone(), certs.key.clone_key())
        .map_err(io::Error::other)?;
        let shared = Arc::new(Shared {
            routes: RwLock::new(self.routes.into_iter().collect()),
            static_root: self.static_root,
            log: Mutex::new(VecDeque::new()),
            shutdown: AtomicBool::new(false),
            connections: AtomicUsize::new(0),
            accepted: AtomicUsize::new(0),
            tls: Arc::new(tls),
        });
        let http = TcpListener::bind("127.0.0.1:0")?;
        let https = TcpListener::bind("127.0.0.1:0")?;
        let (http_addr, https_addr) = (http.local_addr()?, https.local_addr()?);
        let ca_file = write_ca_file(&certs.ca_pem, http_addr.port())?;
        let mut threads = Vec::new();
        for (listener, scheme) in [(http, "http"), (https, "https")] {
            listener.set_nonblocking(true)?;
            let shared = shared.clone();
            threads.push(
                std::thread::Builder::new()
                    .name(format!("test-server-{scheme}"))
                    .spawn(move || accept_loop(listener, scheme, shared))?,
            );
        }
        Ok(TestServer {
            shared,
            http_addr,
            https_addr,
            ca_pem: certs.ca_pem,
            ca_file,
            hosts,
            threads,
        })
    }
}

/// A running loopback server; stops when dropped.
pub struct TestServer {
    shared: Arc<Shared>,
    http_addr: SocketAddr,
    https_addr: SocketAddr,
    ca_pem: String,
    ca_file: PathBuf,
    hosts: Vec<String>,
    threads: Vec<JoinHandle<()>>,
}

impl std::fmt::Debug for TestServer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TestServer")
            .field("http", &self.http_addr)
            .field("https", &self.https_addr)
            .finish_non_exhaustive()
    }
}

impl TestServer {
    /// A builder, for a static root or more host names.
    pub fn builder() -> TestServerBuilder {
        TestServerBuilder::default()
    }

    /// Starts a server with no static root and the default host names.
    pub fn start() -> io::Result<TestServer> {
        TestServer::builder().start()
    }

    /// The HTTP port (on 127.0.0.1).
    pub fn http_port(&self) -> u16 {
        self.http_addr.port()
    }

    /// The HTTPS port (on 127.0.0.1).
    pub fn https_port(&self) -> u16 {
        self.https_addr.port()
    }

    /// `http://<host>:<http port><path>`; `path` starts with `/`. Panics if
    /// that is not a URL (a test bug).
    pub fn http_url(&self, host: &str, path: &str) -> Url {
        make_url("http", host, self.http_port(), path)
    }

    /// `https://<host>:<https port><path>`; `path` starts with `/`. Panics
    /// if that is not a URL (a test bug).
    pub fn https_url(&self, host: &str, path: &str) -> Url {
        make_url("https", host, self.https_port(), path)
    }

    /// The generated CA certificate, PEM: trust it to reach the HTTPS port.
    pub fn ca_pem(&self) -> &str {
        &self.ca_pem
    }

    /// A file holding [`TestServer::ca_pem`] (removed when the server is
    /// dropped), for [`NetConfig::ca_file`].
    pub fn ca_file(&self) -> &Path {
        &self.ca_file
    }

    /// Rules mapping every host name the certificate covers to 127.0.0.1.
    pub fn host_rules(&self) -> HostRules {
        let mut rules = HostRules::new();
        for host in &self.hosts {
            // A pattern that does not parse is left out rather than panic.
            if let Ok(with_rule) = rules.clone().map(host, "127.0.0.1") {
                rules = with_rule;
            }
        }
        rules
    }

    /// A [`NetConfig`] that reaches this server: [`TestServer::host_rules`],
    /// [`TestServer::ca_file`], and a 10 s timeout.
    pub fn net_config(&self) -> NetConfig {
        NetConfig {
            host_rules: self.host_rules(),
            ca_file: Some(self.ca_file.clone()),
            timeout: Duration::from_secs(10),
            ..NetConfig::default()
        }
    }

    /// Registers (or replaces) the handler for `path` (the request path
    /// without the query). A path ending in `*` is a prefix route; the
    /// longest matching prefix wins, after exact routes. Handlers run on
    /// the connection's thread; a panicking handler gives a 500.
    pub fn route(
        &self,
        path: &str,
        handler: impl Fn(&RecordedRequest) -> TestResponse + Send + Sync + 'static,
    ) {
        self.shared
            .routes
            .write()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(path.to_owned(), Arc::new(handler));
    }

    /// Every request received so far, oldest first.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.log().iter().cloned().collect()
    }

    /// The requests received for `path`, oldest first.
    pub fn requests_to(&self, path: &str) -> Vec<RecordedRequest> {
        self.shared
            .log()
            .iter()
            .filter(|r| r.path == path)
            .cloned()
            .collect()
    }

    /// How many connections (HTTP and HTTPS) the server has accepted: lets
    /// a test see that a client reuses connections.
    pub fn connections_accepted(&self) -> usize {
        self.shared.accepted.load(Ordering::SeqCst)
    }

    /// Forgets the recorded requests.
    pub fn clear_requests(&self) {
        self.shared.log().clear();
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        self.shared.shutdown.store(true, Ordering::SeqCst);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
        let _ = std::fs::remove_file(&self.ca_file);
    }
}

fn make_url(scheme: &str, host: &str, port: u16, path: &str) -> Url {
    let host = if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]")
    } else {
        host.to_owned()
    };
    let text = format!("{scheme}://{host}:{port}{path}");
    Url::parse(&text).unwrap_or_else(|e| panic!("test URL {text:?} does not parse: {e}"))
}

impl Shared {
    fn log(&self) -> std::sync::MutexGuard<'_, VecDeque<RecordedRequest>> {
        self.log.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn record(&self, request: &RecordedRequest) {
        let mut log = self.log();
        if log.len() == MAX_LOG {
            log.pop_front();
        }
        log.push_back(request.clone());
    }

    fn handler_for(&self, path: &str) -> Option<Handler> {
        let routes = self.routes.read().unwrap_or_else(PoisonError::into_inner);
        if let Some(handler) = routes.get(path) {
            return Some(handler.clone());
        }
        routes
            .iter()
            .filter_map(|(route, handler)| {
                let prefix = route.strip_suffix('*')?;
                path.starts_with(prefix).then_some((prefix.len(), handler))
            })
            .max_by_key(|(len, _)| *len)
            .map(|(_, handler)| handler.clone())
    }

    fn respond(&self, request: &RecordedRequest) -> TestResponse {
        if let Some(handler) = self.handler_for(&request.path) {
            return catch_unwind(AssertUnwindSafe(|| handler(request))).unwrap_or_else(|_| {
                TestResponse::new(500)
                    .with_content_type("text/plain")
                    .with_body("handler panicked")
            });
        }
        match &self.static_root {
            Some(root) if matches!(request.method.as_str(), "GET" | "HEAD") => {
                serve_static(root, &request.path)
            }
            _ => TestResponse::not_found(),
        }
    }

    /// Sleeps up to `duration` (capped), waking early at shutdown.
    fn stall(&self, duration: Duration) {
        let deadline = Instant::now() + duration.min(MAX_STALL);
        while !self.shutdown.load(Ordering::SeqCst) {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            std::thread::sleep(POLL.min(deadline - now));
        }
    }
}

fn serve_static(root: &Path, path: &str) -> TestResponse {
    let decoded: Vec<u8> = percent_encoding::percent_decode_str(path).collect();
    let Ok(decoded) = String::from_utf8(decoded) else {
        return TestResponse::not_found();
    };
    let mut file = root.to_owned();
    for segment in decoded.split('/').filter(|s| !s.is_empty()) {
        if segment == ".." || segment == "." || segment.contains(['\\', '\0']) {
            return TestResponse::not_found();
        }
        file.push(segment);
    }
    if file.is_dir() {
        file.push("index.html");
    }
    let Ok(body) = std::fs::read(&file) else {
        return TestResponse::not_found();
    };
    // wptserve's sidecar files: `__dir__.headers` for every file of the
    // directory, then `<file>.headers`.
    let extra = match headers::for_file(&file) {
        Ok(extra) => extra,
        Err(message) => {
            return TestResponse::new(500)
                .with_content_type("text/plain")
                .with_body(message)
        }
    };
    let mut response = TestResponse::ok(body);
    if !extra
        .iter()
        .any(|(name, _)| name.eq_ignore_ascii_case("Content-Type"))
    {
        if let Some(content_type) = content_type_for_path(&file) {
            response = response.with_content_type(&content_type);
        }
    }
    for (name, value) in extra {
        response = response.with_header(&name, &value);
    }
    response
}

/// The CA and the server's chain and key.
struct Certificates {
    ca_pem: String,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
}

impl Certificates {
    fn generate(hosts: &[String]) -> io::Result<Certificates> {
        let mut ca_params =
            CertificateParams::new(Vec::<String>::new()).map_err(io::Error::other)?;
        ca_params
            .distinguished_name
            .push(DnType::CommonName, "jsprof-net test CA");
        ca_params.is_ca = IsCa::Ca(BasicConstraints::Unconstrained);
        ca_params.key_usages = vec![KeyUsagePurpose::KeyCertSign, KeyUsagePurpose::CrlSign];
        let ca_key = KeyPair::generate().map_err(io::Error::other)?;
        let ca_cert = ca_params.self_signed(&ca_key).map_err(io::Error::other)?;

        let mut names = hosts.to_vec();
        names.extend(["localhost", "127.0.0.1", "::1"].map(str::to_owned));
        let mut leaf_params = CertificateParams::new(names).map_err(io::Error::other)?;
        leaf_params
            .distinguished_name
            .push(DnType::CommonName, "web-platform.test");
        let leaf_key = KeyPair::generate().map_err(io::Error::other)?;
        let issuer = Issuer::new(ca_params, ca_key);
        let leaf_cert = leaf_params
            .signed_by(&leaf_key, &issuer)
            .map_err(io::Error::other)?;
        Ok(Certificates {
            ca_pem: ca_cert.pem(),
            chain: vec![leaf_cert.der().clone(), ca_cert.der().clone()],
            key: PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(leaf_key.serialize_der())),
        })
    }
}

fn write_ca_file(pem: &str, port: u16) -> io::Result<PathBuf> {
    let path = std::env::temp_dir().join(format!(
        "jsprof-net-test-ca-{}-{port}.pem",
        std::process::id()
    ));
    std::fs::write(&path, pem)?;
    Ok(path)
}

fn accept_loop(listener: TcpListener, scheme: &'static str, shared: Arc<Shared>) {
    while !shared.shutdown.load(Ordering::SeqCst) {
        match listener.accept() {
            Ok((stream, _)) => {
                shared.accepted.fetch_add(1, Ordering::SeqCst);
                if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                    continue;
                }
                let shared_for_thread = shared.clone();
                let spawned = std::thread::Builder::new()
                    .name(format!("test-server-{scheme}-conn"))
                    .spawn(move || {
                        serve_stream(stream, scheme, &shared_for_thread);
                        shared_for_thread.connections.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    shared.connections.fetch_sub(1, Ordering::SeqCst);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => std::thread::sleep(POLL),
            Err(_) => std::thread::sleep(POLL),
        }
    }
}

fn serve_stream(stream: TcpStream, scheme: &'static str, shared: &Shared) {
    if stream.set_nonblocking(false).is_err() || stream.set_read_timeout(Some(POLL)).is_err() {
        return;
    }
    let _ = stream.set_nodelay(true);
    let _ = stream.set_write_timeout(Some(IDLE_TIMEOUT));
    if scheme == "https" {
        let Ok(connection) = rustls::ServerConnection::new(shared.tls.clone()) else {
            return;
        };
        serve_connection(rustls::StreamOwned::new(connection, stream), scheme, shared);
    } else {
        serve_connection(stream, scheme, shared);
    }
}

fn serve_connection(mut stream: impl Read + Write, scheme: &'static str, shared: &Shared) {
    let mut buffer = Vec::new();
    for served in 1..=MAX_REQUESTS_PER_CONNECTION {
        let request = match read_request(&mut stream, &mut buffer, scheme, shared) {
            Ok(request) => request,
            Err(Some(response)) => {
                let _ = write_response(&mut stream, &response, false, true, shared);
                return;
            }
            Err(None) => return,
        };
        shared.record(&request);
        let response = shared.respond(&request);
        // The last request this connection serves says so (`Connection:
        // close`), as servers with a per-connection limit do: a client
        // reusing the connection would otherwise send its next request
        // into a closed socket.
        let close = served == MAX_REQUESTS_PER_CONNECTION
            || request
                .header("Connection")
                .is_some_and(|v| v.eq_ignore_ascii_case("close"));
        if write_response(
            &mut stream,
            &response,
            request.method == "HEAD",
            close,
            shared,
        )
        .is_err()
            || close
        {
            return;
        }
    }
}

/// Reads more bytes, waiting through read timeouts until data, EOF, idle
/// timeout or shutdown. `Ok(0)` is EOF.
fn read_some(stream: &mut impl Read, buffer: &mut Vec<u8>, shared: &Shared) -> io::Result<usize> {
    let started = Instant::now();
    let mut chunk = [0u8; 16 * 1024];
    loop {
        if shared.shutdown.load(Ordering::SeqCst) || started.elapsed() > IDLE_TIMEOUT {
            return Err(io::ErrorKind::TimedOut.into());
        }
        match stream.read(&mut chunk) {
            Ok(n) => {
                buffer.extend_from_slice(&chunk[..n]);
                return Ok(n);
            }
            Err(e)
                if matches!(
                    e.kind(),
                    io::ErrorKind::WouldBlock
                        | io::ErrorKind::TimedOut
                        | io::ErrorKind::Interrupted
                ) => {}
            Err(e) => return Err(e),
        }
    }
}

/// Reads one request. `Err(Some(response))`: answer with it and close;
/// `Err(None)`: just close.
fn read_request(
    stream: &mut impl Read,
    buffer: &mut Vec<u8>,
    scheme: &'static str,
    shared: &Shared,
) -> Result<RecordedRequest, Option<TestResponse>> {
    let bad = |status: u16, message: &str| {
        Some(
            TestResponse::new(status)
                .with_content_type("text/plain")
                .with_body(message.to_owned()),
        )
    };
    // The head.
    let (head_len, method, target, headers) = loop {
        let mut parsed_headers = [httparse::EMPTY_HEADER; 64];
        let mut parsed = httparse::Request::new(&mut parsed_headers);
        match parsed.parse(buffer) {
            Ok(httparse::Status::Complete(len)) => {
                let headers: Vec<(String, String)> = parsed
                    .headers
                    .iter()
                    .map(|h| {
                        (
                            h.name.to_owned(),
                            String::from_utf8_lossy(h.value).into_owned(),
                        )
                    })
                    .collect();
                break (
                    len,
                    parsed.method.unwrap_or("GET").to_owned(),
                    parsed.path.unwrap_or("/").to_owned(),
                    headers,
                );
            }
            Ok(httparse::Status::Partial) => {
                if buffer.len() > MAX_HEAD {
                    return Err(bad(431, "request head too large"));
                }
                match read_some(stream, buffer, shared) {
                    Ok(0) | Err(_) => return Err(None),
                    Ok(_) => {}
                }
            }
            Err(_) => return Err(bad(400, "malformed request")),
        }
    };
    buffer.drain(..head_len);
    // The body.
    let header = |name: &str| {
        headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.trim())
    };
    if header("Transfer-Encoding").is_some() {
        return Err(bad(501, "chunked request bodies are not supported"));
    }
    let length = match header("Content-Length") {
        None => 0,
        Some(value) => match value.parse::<usize>() {
            Ok(length) if length <= MAX_REQUEST_BODY => length,
            Ok(_) => return Err(bad(413, "request body too large")),
            Err(_) => return Err(bad(400, "bad Content-Length")),
        },
    };
    while buffer.len() < length {
        match read_some(stream, buffer, shared) {
            Ok(0) | Err(_) => return Err(None),
            Ok(_) => {}
        }
    }
    let body: Vec<u8> = buffer.drain(..length).collect();
    let (path, query) = match target.split_once('?') {
        Some((path, query)) => (path.to_owned(), Some(query.to_owned())),
        None => (target, None),
    };
    Ok(RecordedRequest {
        scheme,
        method,
        path,
        query,
        headers,
        body,
    })
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        301 => "Moved Permanently",
        302 => "Found",
        303 => "See Other",
        304 => "Not Modified",
        307 => "Temporary Redirect",
        308 => "Permanent Redirect",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        413 => "Content Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        501 => "Not Implemented",
        _ => "Unknown",
    }
}

fn write_response(
    stream: &mut impl Write,
    response: &TestResponse,
    head_only: bool,
    close: bool,
    shared: &Shared,
) -> io::Result<()> {
    if let Some(stall) = response.stall_before_headers {
        shared.stall(stall);
    }
    let reason = response
        .reason
        .as_deref()
        .unwrap_or_else(|| reason_phrase(response.status));
    // Strip line breaks so a handler cannot split the response.
    let clean = |s: &str| s.replace(['\r', '\n'], " ");
    let mut head = format!("HTTP/1.1 {} {}\r\n", response.status, clean(reason));
    let has_length = response
        .headers
        .iter()
        .any(|(n, _)| n.eq_ignore_ascii_case("Content-Length"));
    for (name, value) in &response.headers {
        head.push_str(&format!("{}: {}\r\n", clean(name), clean(value)));
    }
    if !has_length {
        head.push_str(&format!("Content-Length: {}\r\n", response.body.len()));
    }
    if close {
        head.push_str("Connection: close\r\n");
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.flush()?;
    if let Some(stall) = response.stall_before_body {
        shared.stall(stall);
    }
    if !head_only {
        stream.write_all(&response.body)?;
    }
    stream.flush()
}
