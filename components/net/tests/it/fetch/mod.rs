//! The fetcher against the loopback test server (and `data:`, `file:`,
//! `blob:` URLs). No network beyond 127.0.0.1; no timing assertions.

use jsprof_net::{Fetcher, HopRequest, NetError, Url};
use jsprof_test_server::TestServer;

mod http;
mod raw;
mod redirects;
mod requests;
mod schemes;
mod script;

const WPT: &str = "web-platform.test";
const WWW: &str = "www.web-platform.test";
const OTHER: &str = "not-web-platform.test";

fn server() -> TestServer {
    TestServer::start().expect("test server starts")
}

fn fetcher(server: &TestServer) -> Fetcher {
    Fetcher::new(server.net_config()).expect("fetcher")
}

fn get(fetcher: &Fetcher, url: &Url) -> Result<jsprof_net::RawResponse, NetError> {
    fetcher.fetch_hop(&HopRequest::get(url.clone()))
}

fn header_lines(response: &jsprof_net::RawResponse, name: &str) -> Vec<String> {
    response
        .headers
        .iter()
        .filter(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| String::from_utf8_lossy(v).into_owned())
        .collect()
}
