//! `http:` and `https:` hops over [`ureq`]: one request, no redirect
//! following, host rules applied at name resolution only.
//!
//! ureq is HTTP/1.1 only. Its header map lowercases response header names
//! and groups the lines of one name together (the order among a name's
//! values, and of names by first appearance, is kept), and it does not keep
//! the reason phrase: [`RawResponse::status_text`] is the status code's
//! canonical reason.

use std::fmt;
use std::io;
use std::path::Path;

use jsprof_document::HeaderList;
use ureq::config::Config;
use ureq::http::Uri;
use ureq::tls::{Certificate, RootCerts, TlsConfig};
use ureq::unversioned::resolver::{DefaultResolver, ResolvedSocketAddrs, Resolver};
use ureq::unversioned::transport::{DefaultConnector, NextTimeout};
use ureq::Agent;
use url::Url;

use crate::error::TlsProblem;
use crate::hosts::{HostResolution, HostRules};
use crate::{HopRequest, Method, NetConfig, NetError, RawResponse};

/// A resolver that applies [`HostRules`] before the system resolver.
#[derive(Debug)]
struct MappedResolver {
    rules: HostRules,
    system: DefaultResolver,
}

/// A failed lookup, carried through ureq's `Error::Other`.
#[derive(Debug)]
struct ResolveFailed {
    host: String,
    resolved_as: String,
    detail: String,
}

impl fmt::Display for ResolveFailed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "lookup of {} failed: {}", self.resolved_as, self.detail)
    }
}

impl std::error::Error for ResolveFailed {}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

impl Resolver for MappedResolver {
    fn resolve(
        &self,
        uri: &Uri,
        config: &Config,
        timeout: NextTimeout,
    ) -> Result<ResolvedSocketAddrs, ureq::Error> {
        let (Some(host), Some(scheme)) = (uri.host(), uri.scheme_str()) else {
            // Let ureq's resolver report the bad URI.
            return self.system.resolve(uri, config, timeout);
        };
        let Some(port) = uri.port_u16().or_else(|| default_port(scheme)) else {
            return self.system.resolve(uri, config, timeout);
        };
        let failed = |resolved_as: &str, detail: String| {
            ureq::Error::Other(Box::new(ResolveFailed {
                host: host.to_owned(),
                resolved_as: resolved_as.to_owned(),
                detail,
            }))
        };
        let (target, resolved_as) = match self.rules.resolve(host, port) {
            HostResolution::Unchanged => (uri.clone(), host.to_owned()),
            HostResolution::NotFound => {
                return Err(failed(
                    "~NOTFOUND",
                    "a host rule maps it to ~NOTFOUND".into(),
                ))
            }
            HostResolution::Mapped {
                host: mapped,
                port: mapped_port,
            } => {
                let authority = if mapped.contains(':') {
                    format!("[{mapped}]:{mapped_port}")
                } else {
                    format!("{mapped}:{mapped_port}")
                };
                let target = format!("{scheme}://{authority}/")
                    .parse::<Uri>()
                    .map_err(|e| failed(&mapped, format!("bad mapped host: {e}")))?;
                (target, mapped)
            }
        };
        match self.system.resolve(&target, config, timeout) {
            Ok(addresses) => Ok(addresses),
            Err(ureq::Error::HostNotFound) => Err(failed(&resolved_as, "no address found".into())),
            Err(ureq::Error::Io(error)) => Err(failed(&resolved_as, error.to_string())),
            Err(other) => Err(other),
        }
    }
}

/// Builds the pooled HTTP client for a configuration.
pub(crate) fn build_agent(config: &NetConfig) -> Result<Agent, NetError> {
    let mut tls = TlsConfig::builder();
    if config.accept_invalid_certs {
        tls = tls.disable_verification(true);
    } else if let Some(path) = &config.ca_file {
        tls = tls.root_certs(read_ca_file(path)?);
    }
    let agent_config = Agent::config_builder()
        .http_status_as_error(false)
        .max_redirects(0)
        .max_redirects_will_error(false)
        .save_redirect_history(false)
        .proxy(None)
        .user_agent(config.user_agent.as_str())
        .timeout_global(Some(config.timeout))
        .tls_config(tls.build())
        .build();
    let resolver = MappedResolver {
        rules: config.host_rules.clone(),
        system: DefaultResolver::default(),
    };
    Ok(Agent::with_parts(
        agent_config,
        DefaultConnector::new(),
        resolver,
    ))
}

fn read_ca_file(path: &Path) -> Result<RootCerts, NetError> {
    let error = |detail: String| NetError::CaFile {
        path: path.to_owned(),
        detail,
    };
    let pem = std::fs::read(path).map_err(|e| error(e.to_string()))?;
    let mut certs = Vec::new();
    for item in ureq::tls::parse_pem(&pem) {
        // Keys and other items in the same file are ignored.
        if let ureq::tls::PemItem::Certificate(cert) = item.map_err(|e| error(e.to_string()))? {
            certs.push(cert);
        }
    }
    if certs.is_empty() {
        return Err(error("no PEM certificate in the file".into()));
    }
    Ok(RootCerts::new_with_certs(
        &certs.iter().map(Certificate::to_owned).collect::<Vec<_>>(),
    ))
}

/// The URL as sent on the wire: no fragment, no userinfo.
fn wire_uri(url: &Url) -> Result<Uri, NetError> {
    let mut wire = url.clone();
    wire.set_fragment(None);
    // Only fails for URLs that cannot have credentials, which have none.
    let _ = wire.set_username("");
    let _ = wire.set_password(None);
    wire.as_str()
        .parse::<Uri>()
        .map_err(|e| NetError::InvalidRequest {
            url: url.clone(),
            reason: format!("the HTTP client cannot express this URL: {e}"),
        })
}

/// Sends one request and reads the whole response.
pub(crate) fn fetch(
    agent: &Agent,
    config: &NetConfig,
    request: &HopRequest,
) -> Result<RawResponse, NetError> {
    let url = &request.url;
    let mut builder = ureq::http::Request::builder()
        .method(request.method.as_str())
        .uri(wire_uri(url)?);
    for (name, value) in &request.headers {
        builder = builder.header(name.as_str(), value.as_str());
    }
    let invalid = |e: ureq::http::Error| NetError::InvalidRequest {
        url: url.clone(),
        reason: e.to_string(),
    };
    // HTTP-network-or-cache fetch, steps 8.5-8.6: if the body is null and
    // the method is `POST` or `PUT`, the `Content-Length` is `0` (an empty
    // body is sent with its length).
    let result = match &request.body {
        Some(body) => agent.run(builder.body(body.clone()).map_err(invalid)?),
        None if matches!(request.method.as_str(), "POST" | "PUT") => {
            agent.run(builder.body(Vec::<u8>::new()).map_err(invalid)?)
        }
        None => agent.run(builder.body(()).map_err(invalid)?),
    };
    let response = result.map_err(|e| map_error(e, url, config))?;
    let status = response.status();
    let mut headers = HeaderList::new();
    for (name, value) in response.headers() {
        headers.append(name.as_str(), value.as_bytes());
    }
    // A declared length past the limit is refused before any of the body
    // is read (a body without a length, or lying about it, is cut off at
    // the limit below).
    let declared = response
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    if request.method != Method::Head
        && declared.is_some_and(|length| length > config.max_body as u64)
    {
        return Err(NetError::BodyTooLarge {
            url: url.clone(),
            limit: config.max_body,
        });
    }
    let body = if request.method == Method::Head {
        Vec::new()
    } else {
        // ureq fails a read once `limit` bytes have been read, even at the
        // end of the body: allow one byte more so that a body of exactly
        // `max_body` bytes passes, and check the length ourselves.
        let limit = u64::try_from(config.max_body)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        let body = response
            .into_body()
            .with_config()
            .limit(limit)
            .read_to_vec()
            .map_err(|e| map_error(e, url, config))?;
        if body.len() > config.max_body {
            return Err(NetError::BodyTooLarge {
                url: url.clone(),
                limit: config.max_body,
            });
        }
        body
    };
    Ok(RawResponse {
        url: url.clone(),
        status: status.as_u16(),
        status_text: status.canonical_reason().unwrap_or("").to_owned(),
        headers,
        body,
    })
}

/// Turns ureq's error into ours.
fn map_error(error: ureq::Error, url: &Url, config: &NetConfig) -> NetError {
    let connection = |detail: String| NetError::Connection {
        url: url.clone(),
        detail,
    };
    match error {
        ureq::Error::Timeout(_) => NetError::Timeout {
            url: url.clone(),
            after: config.timeout,
        },
        ureq::Error::HostNotFound => {
            let host = url.host_str().unwrap_or("").to_owned();
            NetError::Dns {
                resolved_as: host.clone(),
                host,
                detail: "no address found".into(),
            }
        }
        ureq::Error::Other(other) => match other.downcast::<ResolveFailed>() {
            Ok(failed) => NetError::Dns {
                host: failed.host,
                resolved_as: failed.resolved_as,
                detail: failed.detail,
            },
            Err(other) => connection(other.to_string()),
        },
        ureq::Error::Io(io) => map_io_error(io, url, config),
        ureq::Error::Rustls(tls) => NetError::Tls {
            url: url.clone(),
            problem: tls_problem(&tls),
        },
        ureq::Error::Tls(detail) => NetError::Tls {
            url: url.clone(),
            problem: TlsProblem::Handshake(detail.to_owned()),
        },
        ureq::Error::BodyExceedsLimit(_) => NetError::BodyTooLarge {
            url: url.clone(),
            limit: config.max_body,
        },
        ureq::Error::Protocol(e) => NetError::Protocol {
            url: url.clone(),
            detail: e.to_string(),
        },
        ureq::Error::LargeResponseHeader(..) => NetError::Protocol {
            url: url.clone(),
            detail: "response header too large".into(),
        },
        ureq::Error::Http(e) => NetError::InvalidRequest {
            url: url.clone(),
            reason: e.to_string(),
        },
        ureq::Error::BadUri(e) => NetError::InvalidRequest {
            url: url.clone(),
            reason: e,
        },
        other => connection(other.to_string()),
    }
}

fn map_io_error(error: io::Error, url: &Url, config: &NetConfig) -> NetError {
    if let Some(tls) = error
        .get_ref()
        .and_then(|inner| inner.downcast_ref::<rustls::Error>())
    {
        return NetError::Tls {
            url: url.clone(),
            problem: tls_problem(tls),
        };
    }
    match error.kind() {
        io::ErrorKind::ConnectionRefused => NetError::ConnectionRefused { url: url.clone() },
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => NetError::Timeout {
            url: url.clone(),
            after: config.timeout,
        },
        _ => NetError::Connection {
            url: url.clone(),
            detail: error.to_string(),
        },
    }
}

fn tls_problem(error: &rustls::Error) -> TlsProblem {
    use rustls::CertificateError as C;
    match error {
        rustls::Error::InvalidCertificate(cert) => match cert {
            C::UnknownIssuer => TlsProblem::UnknownIssuer,
            C::NotValidForName | C::NotValidForNameContext { .. } => TlsProblem::NotValidForName,
            C::Expired | C::ExpiredContext { .. } => TlsProblem::Expired,
            C::NotValidYet | C::NotValidYetContext { .. } => TlsProblem::NotValidYet,
            C::Revoked => TlsProblem::Revoked,
            other => TlsProblem::BadCertificate(format!("{other:?}")),
        },
        other => TlsProblem::Handshake(other.to_string()),
    }
}
