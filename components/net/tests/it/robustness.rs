//! Bad input never panics: every short string over an alphabet of
//! troublesome characters goes through the parsers.

use jsprof_net::{process_data_url, HostRules, MimeType, Url};

const ALPHABET: [&str; 14] = [
    ",", ";", "=", "\"", "\\", " ", "/", "%", "a", "base64", "é", "[", ":", "*",
];

/// Every concatenation of up to `max` pieces of the alphabet.
fn strings(max: usize) -> Vec<String> {
    let mut all = vec![String::new()];
    let mut last = vec![String::new()];
    for _ in 0..max {
        let next: Vec<String> = last
            .iter()
            .flat_map(|s| ALPHABET.iter().map(move |piece| format!("{s}{piece}")))
            .collect();
        all.extend(next.iter().cloned());
        last = next;
    }
    all
}

#[test]
fn parsers_never_panic() {
    for s in strings(4) {
        let _ = MimeType::parse(&s);
        let _ = HostRules::parse(&s);
        let _ = HostRules::parse(&format!("MAP {s} {s}"));
        if let Ok(rules) = HostRules::parse(&format!("MAP * {s}")) {
            let _ = rules.resolve(&s, 80);
        }
        if let Ok(url) = Url::parse(&format!("data:{s}")) {
            let _ = process_data_url(&url);
        }
        if let Ok(url) = Url::parse(&format!("data:text/plain;base64,{s}")) {
            let _ = process_data_url(&url);
        }
    }
}
