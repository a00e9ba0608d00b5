//! Host-resolver rules: map host names to other names or addresses for name
//! resolution only, like Chromium's `--host-resolver-rules`.
//!
//! A rule list is comma- (or newline-) separated rules, tried in order; the
//! first whose pattern matches the URL's host decides:
//!
//! * `MAP <pattern> <replacement>`: resolve `<replacement>` instead. The
//!   replacement is a host name or IP address (`[v6]` in brackets if it has
//!   a port), optionally with `:<port>` to connect to another port, or
//!   `~NOTFOUND` to make resolution fail.
//! * `EXCLUDE <pattern>`: resolve the host normally (stops the search).
//!
//! Patterns match the whole host, ASCII case-insensitively; `*` matches any
//! run of characters (dots included) and `?` any one character. IPv6 hosts
//! are matched in their bracketed URL form, `[::1]`.
//!
//! A mapping changes where the connection goes, never the request: the URL,
//! the `Host` header, the TLS server name (SNI) and the name the certificate
//! must be valid for all stay the URL's host.
//!
//! ```
//! use jsprof_net::HostRules;
//! let rules = HostRules::parse(
//!     "MAP *.web-platform.test 127.0.0.1, MAP web-platform.test 127.0.0.1",
//! ).unwrap();
//! assert_eq!(
//!     rules.resolve("www.web-platform.test", 443),
//!     jsprof_net::HostResolution::Mapped { host: "127.0.0.1".into(), port: 443 },
//! );
//! ```

use std::fmt;

/// An ordered list of host-resolver rules. The default is empty: every host
/// resolves normally.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostRules {
    rules: Vec<Rule>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Rule {
    Map {
        pattern: String,
        replacement: Replacement,
    },
    Exclude {
        pattern: String,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Replacement {
    NotFound,
    Host { host: String, port: Option<u16> },
}

/// What [`HostRules::resolve`] decided for one host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HostResolution {
    /// No rule matched (or an `EXCLUDE` rule did): resolve the host itself.
    Unchanged,
    /// Resolve `host` and connect to `port` instead.
    Mapped {
        /// The name or address literal to resolve (IPv6 without brackets).
        host: String,
        /// The port to connect to.
        port: u16,
    },
    /// A `~NOTFOUND` rule: resolution fails.
    NotFound,
}

/// A rule list that does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HostRulesError {
    /// The offending rule.
    pub rule: String,
    /// Why it is rejected.
    pub reason: &'static str,
}

impl fmt::Display for HostRulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad host rule {:?}: {}", self.rule, self.reason)
    }
}

impl std::error::Error for HostRulesError {}

impl HostRules {
    /// No rules.
    pub fn new() -> Self {
        Self::default()
    }

    /// Parses a rule list (see the [module documentation](self)). Empty
    /// rules (`a,,b`, trailing commas, blank lines) are skipped.
    pub fn parse(text: &str) -> Result<Self, HostRulesError> {
        let mut rules = HostRules::new();
        for rule in text.split([',', '\n']) {
            let words: Vec<&str> = rule.split_ascii_whitespace().collect();
            let error = |reason| HostRulesError {
                rule: rule.trim().to_owned(),
                reason,
            };
            match words.as_slice() {
                [] => {}
                [kind, pattern, replacement] if kind.eq_ignore_ascii_case("MAP") => {
                    rules.rules.push(Rule::Map {
                        pattern: parse_pattern(pattern).map_err(error)?,
                        replacement: parse_replacement(replacement).map_err(error)?,
                    });
                }
                [kind, pattern] if kind.eq_ignore_ascii_case("EXCLUDE") => {
                    rules.rules.push(Rule::Exclude {
                        pattern: parse_pattern(pattern).map_err(error)?,
                    });
                }
                [kind, ..] if kind.eq_ignore_ascii_case("MAP") => {
                    return Err(error("expected `MAP <pattern> <replacement>`"))
                }
                [kind, ..] if kind.eq_ignore_ascii_case("EXCLUDE") => {
                    return Err(error("expected `EXCLUDE <pattern>`"))
                }
                _ => return Err(error("a rule starts with MAP or EXCLUDE")),
            }
        }
        Ok(rules)
    }

    /// Appends `MAP <pattern> <replacement>`.
    pub fn map(mut self, pattern: &str, replacement: &str) -> Result<Self, HostRulesError> {
        let error = |reason| HostRulesError {
            rule: format!("MAP {pattern} {replacement}"),
            reason,
        };
        self.rules.push(Rule::Map {
            pattern: parse_pattern(pattern).map_err(error)?,
            replacement: parse_replacement(replacement).map_err(error)?,
        });
        Ok(self)
    }

    /// Appends `EXCLUDE <pattern>`.
    pub fn exclude(mut self, pattern: &str) -> Result<Self, HostRulesError> {
        let pattern = parse_pattern(pattern).map_err(|reason| HostRulesError {
            rule: format!("EXCLUDE {pattern}"),
            reason,
        })?;
        self.rules.push(Rule::Exclude { pattern });
        Ok(self)
    }

    /// Appends all of `other`'s rules after this list's.
    pub fn extend(&mut self, other: &HostRules) {
        self.rules.extend(other.rules.iter().cloned());
    }

    /// Whether there is no rule.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// Where to connect for `host` (a URL's host, IPv6 in brackets) and
    /// `port` (the URL's port or the scheme's default).
    pub fn resolve(&self, host: &str, port: u16) -> HostResolution {
        let host = host.to_ascii_lowercase();
        for rule in &self.rules {
            match rule {
                Rule::Exclude { pattern } if glob_match(pattern, &host) => {
                    return HostResolution::Unchanged
                }
                Rule::Map {
                    pattern,
                    replacement,
                } if glob_match(pattern, &host) => {
                    return match replacement {
                        Replacement::NotFound => HostResolution::NotFound,
                        Replacement::Host {
                            host,
                            port: new_port,
                        } => HostResolution::Mapped {
                            host: host.clone(),
                            port: new_port.unwrap_or(port),
                        },
                    };
                }
                _ => {}
            }
        }
        HostResolution::Unchanged
    }
}

impl std::str::FromStr for HostRules {
    type Err = HostRulesError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        HostRules::parse(s)
    }
}

fn parse_pattern(pattern: &str) -> Result<String, &'static str> {
    if pattern.is_empty() || pattern.chars().any(|c| c.is_ascii_whitespace() || c == ',') {
        return Err("bad host pattern");
    }
    Ok(pattern.to_ascii_lowercase())
}

fn parse_replacement(text: &str) -> Result<Replacement, &'static str> {
    if text == "~NOTFOUND" {
        return Ok(Replacement::NotFound);
    }
    let parse_port = |p: &str| p.parse::<u16>().map_err(|_| "bad port in replacement");
    let (host, port) = if let Some(rest) = text.strip_prefix('[') {
        // `[v6]` or `[v6]:port`.
        let (v6, after) = rest.split_once(']').ok_or("unclosed `[` in replacement")?;
        let port = match after {
            "" => None,
            _ => Some(parse_port(
                after
                    .strip_prefix(':')
                    .ok_or("junk after `]` in replacement")?,
            )?),
        };
        (v6, port)
    } else {
        match text.matches(':').count() {
            0 => (text, None),
            1 => {
                let (host, port) = text.split_once(':').unwrap_or((text, ""));
                (host, Some(parse_port(port)?))
            }
            // A bare IPv6 address, no port.
            _ => (text, None),
        }
    };
    if host.is_empty() || host.contains(['/', '[', ']', '*', '?']) {
        return Err("bad host in replacement");
    }
    Ok(Replacement::Host {
        host: host.to_ascii_lowercase(),
        port,
    })
}

/// Whole-string match of a lowercase `pattern` with `*` (any run) and `?`
/// (any one character) against a lowercase `text`.
fn glob_match(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0, 0);
    // The position after the last `*` seen, and the text position it was
    // tried at, to backtrack to.
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi] == t[ti]) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi + 1, ti));
            pi += 1;
        } else if let Some((after_star, tried)) = star {
            pi = after_star;
            ti = tried + 1;
            star = Some((after_star, tried + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mapped(host: &str, port: u16) -> HostResolution {
        HostResolution::Mapped {
            host: host.into(),
            port,
        }
    }

    #[test]
    fn glob() {
        assert!(glob_match("*", ""));
        assert!(glob_match("*", "a.b"));
        assert!(glob_match("*.test", "www.web-platform.test"));
        assert!(!glob_match("*.test", "test"));
        assert!(glob_match("www?.x", "www1.x"));
        assert!(!glob_match("www?.x", "www.x"));
        assert!(glob_match("a*b*c", "aXbYbZc"));
        assert!(!glob_match("a*b*c", "aXbYbZ"));
        assert!(glob_match("exact", "exact"));
        assert!(!glob_match("exact", "exactly"));
    }

    #[test]
    fn first_matching_rule_wins() {
        let rules = HostRules::parse(
            "EXCLUDE keep.web-platform.test, MAP *.web-platform.test 127.0.0.1,\n\
             MAP web-platform.test localhost:8080, MAP gone.test ~NOTFOUND,,",
        )
        .unwrap();
        assert_eq!(
            rules.resolve("WWW.web-platform.test", 80),
            mapped("127.0.0.1", 80)
        );
        assert_eq!(
            rules.resolve("web-platform.test", 443),
            mapped("localhost", 8080)
        );
        assert_eq!(
            rules.resolve("keep.web-platform.test", 80),
            HostResolution::Unchanged
        );
        assert_eq!(rules.resolve("gone.test", 80), HostResolution::NotFound);
        assert_eq!(rules.resolve("example.com", 80), HostResolution::Unchanged);
    }

    #[test]
    fn ipv6_replacements() {
        let rules = HostRules::new()
            .map("a.test", "[::1]:9000")
            .unwrap()
            .map("b.test", "[::1]")
            .unwrap()
            .map("c.test", "::1")
            .unwrap()
            .map("[::2]", "127.0.0.1")
            .unwrap();
        assert_eq!(rules.resolve("a.test", 80), mapped("::1", 9000));
        assert_eq!(rules.resolve("b.test", 80), mapped("::1", 80));
        assert_eq!(rules.resolve("c.test", 80), mapped("::1", 80));
        assert_eq!(rules.resolve("[::2]", 80), mapped("127.0.0.1", 80));
    }

    #[test]
    fn bad_rules_are_errors() {
        for bad in [
            "MAP a",
            "MAP a b c",
            "EXCLUDE",
            "REWRITE a b",
            "MAP a b:notaport",
            "MAP a b:99999",
            "MAP a [::1",
            "MAP a [::1]x",
            "MAP a */",
            "MAP a :80",
        ] {
            let error = HostRules::parse(bad).unwrap_err();
            assert!(!error.to_string().is_empty(), "{bad}");
        }
        assert!(HostRules::parse("").unwrap().is_empty());
        assert!(HostRules::new().map("a b", "c").is_err());
        assert!(HostRules::new().exclude("").is_err());
    }
}
