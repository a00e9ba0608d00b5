//! The WPT server: [`routes`](crate::routes) on the transport of
//! `jsprof_test_server::TestServer` (HTTP and HTTPS on 127.0.0.1 only,
//! ephemeral ports, a CA made at start whose certificate is valid for both
//! WPT host names and their subdomains, bounded connections and timeouts;
//! stops when dropped). Every request goes to one catch-all handler. Two
//! such servers run, for WPT's second ports (`{{ports[http][1]}}`).

use std::path::PathBuf;
use std::sync::Arc;

use jsprof_test_server::{RecordedRequest, TestResponse, TestServer};

use crate::config::Hosts;
use crate::routes::{Request, Routes};

pub struct Server {
    inner: TestServer,
    second: TestServer,
}

/// What [`Server::start`] needs besides the ports it picks.
pub struct Setup {
    pub root: PathBuf,
    /// URL path → file, served when the root lacks the path.
    pub fallback: Vec<(String, PathBuf)>,
    pub hosts: Hosts,
    pub timeout_multiplier: f64,
}

impl Server {
    pub fn start(setup: Setup) -> Result<Server, String> {
        let start = || {
            let mut builder = TestServer::builder();
            for name in setup.hosts.all() {
                builder = builder.host(&name);
            }
            builder
                .start()
                .map_err(|e| format!("cannot start the WPT server on loopback: {e}"))
        };
        let (inner, second) = (start()?, start()?);
        let routes = Arc::new(Routes {
            root: setup.root,
            fallback: setup.fallback,
            hosts: setup.hosts,
            http_ports: [inner.http_port(), second.http_port()],
            https_ports: [inner.https_port(), second.https_port()],
            timeout_multiplier: setup.timeout_multiplier,
        });
        for server in [&inner, &second] {
            let routes = routes.clone();
            server.route("/*", move |request| answer(&routes, request));
        }
        Ok(Server { inner, second })
    }

    pub fn http_port(&self) -> u16 {
        self.inner.http_port()
    }

    pub fn https_port(&self) -> u16 {
        self.inner.https_port()
    }

    /// The PEM of both servers' CAs, for one `--ca-file`.
    pub fn ca_pem_bundle(&self) -> String {
        format!(
            "{}\n{}",
            self.inner.ca_pem().trim_end(),
            self.second.ca_pem()
        )
    }
}

fn answer(routes: &Routes, request: &RecordedRequest) -> TestResponse {
    let target = match &request.query {
        Some(query) => format!("{}?{query}", request.path),
        None => request.path.clone(),
    };
    let response = routes.respond(
        &Request {
            method: request.method.clone(),
            target,
            headers: request.headers.clone(),
        },
        request.scheme,
    );
    let mut out = TestResponse::new(response.status);
    out.headers = response.headers;
    out.body = response.body;
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use jsprof_net::Fetcher;

    #[test]
    fn serves_the_routes_over_http_and_https_on_both_hosts() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("a.sub.txt"),
            "{{location[scheme]}} {{hosts[alt][]}}",
        )
        .unwrap();
        std::fs::write(dir.path().join("a.sub.txt.headers"), "X-Test: yes\n").unwrap();
        let server = Server::start(Setup {
            root: dir.path().to_owned(),
            fallback: vec![],
            hosts: Hosts::default(),
            timeout_multiplier: 1.0,
        })
        .unwrap();
        let fetcher = Fetcher::new(server.inner.net_config()).unwrap();
        for (scheme, port) in [("http", server.http_port()), ("https", server.https_port())] {
            for host in ["web-platform.test", "www2.not-web-platform.test"] {
                let url =
                    url::Url::parse(&format!("{scheme}://{host}:{port}/a.sub.txt?q=1")).unwrap();
                let got = fetcher.fetch_following(&url, &[]).unwrap().response;
                assert_eq!(got.status, 200, "{url}");
                assert_eq!(
                    String::from_utf8(got.body).unwrap(),
                    format!("{scheme} not-web-platform.test")
                );
            }
        }
        let missing = url::Url::parse(&format!(
            "http://web-platform.test:{}/nope",
            server.http_port()
        ))
        .unwrap();
        assert_eq!(
            fetcher
                .fetch_following(&missing, &[])
                .unwrap()
                .response
                .status,
            404
        );
        assert_eq!(
            server.ca_pem_bundle().matches("BEGIN CERTIFICATE").count(),
            2
        );
        let second = url::Url::parse(&format!(
            "https://www.web-platform.test:{}/a.sub.txt",
            server.second.https_port()
        ))
        .unwrap();
        let fetcher = Fetcher::new(server.second.net_config()).unwrap();
        assert_eq!(
            fetcher
                .fetch_following(&second, &[])
                .unwrap()
                .response
                .status,
            200
        );
    }
}
