//! The WPT host names: a primary and an `alt` host, each with the `www`,
//! `www1` and `www2` subdomains, all mapped to loopback in the shell.

/// Subdomains of both hosts, as WPT's `config.json` defines them (subset).
pub const SUBDOMAINS: [&str; 3] = ["www", "www1", "www2"];

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hosts {
    pub primary: String,
    pub alt: String,
}

impl Default for Hosts {
    fn default() -> Self {
        Hosts {
            primary: "web-platform.test".into(),
            alt: "not-web-platform.test".into(),
        }
    }
}

impl Hosts {
    /// `base` is `""` (primary) or `"alt"`; `sub` is `""` or a subdomain.
    pub fn name(&self, base: &str, sub: &str) -> Option<String> {
        let base = match base {
            "" => &self.primary,
            "alt" => &self.alt,
            _ => return None,
        };
        match sub {
            "" => Some(base.clone()),
            s if SUBDOMAINS.contains(&s) => Some(format!("{s}.{base}")),
            _ => None,
        }
    }

    /// Every host name served: both bases and all their subdomains.
    pub fn all(&self) -> Vec<String> {
        let mut names = Vec::new();
        for base in ["", "alt"] {
            for sub in std::iter::once("").chain(SUBDOMAINS) {
                names.extend(self.name(base, sub));
            }
        }
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_cover_both_hosts_and_subdomains() {
        let hosts = Hosts::default();
        assert_eq!(
            hosts.name("alt", "www1").unwrap(),
            "www1.not-web-platform.test"
        );
        assert_eq!(hosts.name("", "").unwrap(), "web-platform.test");
        assert!(hosts.name("x", "").is_none());
        assert!(hosts.name("", "www9").is_none());
        assert_eq!(hosts.all().len(), 8);
    }
}
