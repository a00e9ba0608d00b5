//! `.sub.` substitutions: `{{...}}` templates in served files.
//!
//! Supported expressions (the subset our tests and common WPT files use):
//!
//! * `{{host}}`, `{{domains[]}}`, `{{domains[www]}}` (primary host and its
//!   subdomains);
//! * `{{hosts[][]}}`, `{{hosts[][www1]}}`, `{{hosts[alt][]}}`,
//!   `{{hosts[alt][www]}}`;
//! * `{{ports[http][0]}}`, `{{ports[https][0]}}` and the second ports
//!   `{{ports[http][1]}}`, `{{ports[https][1]}}` (no h2, ws or wss);
//! * `{{location[scheme|host|hostname|port|path|pathname|query|server]}}` of
//!   the request being served;
//! * `{{GET[name]}}` (query parameter) and `{{headers[name]}}` (request
//!   header);
//! * `{{uuid()}}`, and `{{$name:expr}}` / `{{$name}}` to reuse a value.
//!
//! Anything else is an error naming the expression, which the server turns
//! into a 500 response, so an unsupported template is visible, never blank.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::config::Hosts;

/// What a substitution can refer to: the server's hosts and ports, and the
/// request being served.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    pub hosts: &'a Hosts,
    /// The two HTTP ports (`ports[http][0]`, `ports[http][1]`).
    pub http_ports: [u16; 2],
    /// The two HTTPS ports.
    pub https_ports: [u16; 2],
    /// `http` or `https`.
    pub scheme: &'a str,
    /// The request's host name, without port.
    pub hostname: &'a str,
    pub port: u16,
    /// The request path (percent-encoded as received).
    pub path: &'a str,
    /// The raw query, without `?` (empty when none).
    pub query: &'a str,
    /// Request headers (names in any case).
    pub headers: &'a [(String, String)],
}

/// Replaces every `{{...}}` in `text`.
pub fn substitute(text: &str, ctx: &Context) -> Result<String, String> {
    let mut out = String::with_capacity(text.len());
    let mut vars: HashMap<String, String> = HashMap::new();
    let mut rest = text;
    while let Some(start) = rest.find("{{") {
        out.push_str(&rest[..start]);
        let after = &rest[start + 2..];
        let Some(end) = after.find("}}") else {
            return Err(format!(
                "unterminated `{{{{` in substitution near `{}`",
                excerpt(&rest[start..])
            ));
        };
        let expr = after[..end].trim();
        out.push_str(&evaluate_with_vars(expr, ctx, &mut vars)?);
        rest = &after[end + 2..];
    }
    out.push_str(rest);
    Ok(out)
}

fn excerpt(s: &str) -> &str {
    let mut end = s.len().min(40);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

fn evaluate_with_vars(
    expr: &str,
    ctx: &Context,
    vars: &mut HashMap<String, String>,
) -> Result<String, String> {
    if let Some(var) = expr.strip_prefix('$') {
        if let Some((name, value_expr)) = var.split_once(':') {
            let value = evaluate(value_expr.trim(), ctx)?;
            vars.insert(name.trim().to_owned(), value.clone());
            return Ok(value);
        }
        return vars
            .get(var.trim())
            .cloned()
            .ok_or_else(|| format!("substitution variable `${}` is not defined", var.trim()));
    }
    evaluate(expr, ctx)
}

/// Evaluates one expression (the text between `{{` and `}}`).
pub fn evaluate(expr: &str, ctx: &Context) -> Result<String, String> {
    let unsupported = || format!("unsupported substitution `{{{{{expr}}}}}`");
    if expr == "host" {
        return Ok(ctx.hosts.primary.clone());
    }
    if expr == "uuid()" {
        return Ok(uuid());
    }
    let (head, args) = split_indexed(expr).ok_or_else(unsupported)?;
    match (head, args.as_slice()) {
        ("domains", [sub]) => ctx.hosts.name("", sub).ok_or_else(unsupported),
        ("hosts", [base, sub]) => ctx.hosts.name(base, sub).ok_or_else(unsupported),
        ("ports", [scheme, index]) => {
            let ports = match *scheme {
                "http" => ctx.http_ports,
                "https" => ctx.https_ports,
                _ => return Err(unsupported()),
            };
            let port = match *index {
                "0" => ports[0],
                "1" => ports[1],
                _ => return Err(unsupported()),
            };
            Ok(port.to_string())
        }
        ("location", [key]) => location(key, ctx).ok_or_else(unsupported),
        ("GET", [name]) => Ok(query_param(ctx.query, name).unwrap_or_default()),
        ("headers", [name]) => Ok(ctx
            .headers
            .iter()
            .find(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.clone())
            .unwrap_or_default()),
        _ => Err(unsupported()),
    }
}

/// `name[a][b]` → (`name`, [`a`, `b`]).
fn split_indexed(expr: &str) -> Option<(&str, Vec<&str>)> {
    let open = expr.find('[')?;
    let head = &expr[..open];
    let mut args = Vec::new();
    let mut rest = &expr[open..];
    while !rest.is_empty() {
        let inner = rest.strip_prefix('[')?;
        let close = inner.find(']')?;
        args.push(&inner[..close]);
        rest = &inner[close + 1..];
    }
    Some((head, args))
}

fn location(key: &str, ctx: &Context) -> Option<String> {
    let query = if ctx.query.is_empty() {
        String::new()
    } else {
        format!("?{}", ctx.query)
    };
    Some(match key {
        "scheme" => ctx.scheme.to_owned(),
        "hostname" => ctx.hostname.to_owned(),
        "port" => ctx.port.to_string(),
        "host" => format!("{}:{}", ctx.hostname, ctx.port),
        "path" | "pathname" => ctx.path.to_owned(),
        "query" => query,
        "server" => format!("{}://{}:{}", ctx.scheme, ctx.hostname, ctx.port),
        "href" => format!(
            "{}://{}:{}{}{}",
            ctx.scheme, ctx.hostname, ctx.port, ctx.path, query
        ),
        _ => return None,
    })
}

/// The first value of query parameter `name` in a raw query string,
/// percent-decoded (`+` as space).
pub fn query_param(query: &str, name: &str) -> Option<String> {
    query.split('&').find_map(|pair| {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        (decode(k) == name).then(|| decode(v))
    })
}

fn decode(s: &str) -> String {
    percent_encoding::percent_decode_str(&s.replace('+', " "))
        .decode_utf8_lossy()
        .into_owned()
}

/// A version-4-shaped unique id (unique within this process, not random).
fn uuid() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let n = COUNTER.fetch_add(1, Ordering::Relaxed);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let a = nanos ^ (u64::from(std::process::id()) << 32);
    format!(
        "{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}",
        (a >> 32) as u32,
        (a >> 16) as u16,
        (a & 0xfff) as u16,
        (n >> 48) as u16 & 0xfff,
        n & 0xffff_ffff_ffff
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_ctx<R>(f: impl FnOnce(&Context) -> R) -> R {
        let hosts = Hosts::default();
        let headers = vec![("X-Probe".to_owned(), "yes".to_owned())];
        let ctx = Context {
            hosts: &hosts,
            http_ports: [8000, 8001],
            https_ports: [8443, 8444],
            scheme: "https",
            hostname: "web-platform.test",
            port: 8443,
            path: "/dir/a.sub.html",
            query: "x=1&name=a%20b",
            headers: &headers,
        };
        f(&ctx)
    }

    #[test]
    fn hosts_domains_and_ports() {
        with_ctx(|ctx| {
            let text = "{{host}} {{domains[]}} {{domains[www]}} {{hosts[][]}} \
                        {{hosts[alt][]}} {{hosts[alt][www2]}} {{ports[http][0]}} {{ports[https][0]}} {{ports[http][1]}}";
            assert_eq!(
                substitute(text, ctx).unwrap(),
                "web-platform.test web-platform.test www.web-platform.test web-platform.test \
                 not-web-platform.test www2.not-web-platform.test 8000 8443 8001"
            );
        });
    }

    #[test]
    fn location_get_and_headers() {
        with_ctx(|ctx| {
            let text = "{{location[server]}}|{{location[path]}}|{{location[query]}}|\
                        {{location[host]}}|{{GET[name]}}|{{GET[missing]}}|{{headers[x-probe]}}";
            assert_eq!(
                substitute(text, ctx).unwrap(),
                "https://web-platform.test:8443|/dir/a.sub.html|?x=1&name=a%20b|\
                 web-platform.test:8443|a b||yes"
            );
        });
    }

    #[test]
    fn variables_repeat_a_value() {
        with_ctx(|ctx| {
            let out = substitute("{{$id:uuid()}}/{{$id}}", ctx).unwrap();
            let (a, b) = out.split_once('/').unwrap();
            assert_eq!(a, b);
            assert_eq!(a.len(), 36);
        });
    }

    #[test]
    fn unsupported_and_malformed_are_errors() {
        with_ctx(|ctx| {
            for bad in [
                "{{ports[ws][0]}}",
                "{{ports[http][2]}}",
                "{{hosts[other][]}}",
                "{{domains[nope]}}",
                "{{location[bogus]}}",
                "{{what}}",
                "{{$undefined}}",
                "open {{host",
            ] {
                assert!(substitute(bad, ctx).is_err(), "{bad}");
            }
        });
    }

    #[test]
    fn text_without_templates_is_unchanged() {
        with_ctx(|ctx| {
            let text = "function f() { return {a: {b: 1}}; } // é";
            assert_eq!(substitute(text, ctx).unwrap(), text);
        });
    }
}
