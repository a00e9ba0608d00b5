//! The parser, the matching rules, and the jar's storage and retrieval.

use url::Url;

use super::date::parse_cookie_date;
use super::matching::{default_path, domain_match, is_same_site, path_match};
use super::*;

fn url(s: &str) -> Url {
    Url::parse(s).unwrap()
}

#[test]
fn dates() {
    // The three formats of RFC 7231 and friends.
    assert_eq!(
        parse_cookie_date("Sun, 06 Nov 1994 08:49:37 GMT"),
        Some(784111777)
    );
    assert_eq!(
        parse_cookie_date("Sunday, 06-Nov-94 08:49:37 GMT"),
        Some(784111777)
    );
    assert_eq!(
        parse_cookie_date("Sun Nov  6 08:49:37 1994"),
        Some(784111777)
    );
    assert_eq!(parse_cookie_date("Thu, 01 Jan 1970 00:00:00 GMT"), Some(0));
    assert_eq!(
        parse_cookie_date("Wed, 29 Feb 2024 00:00:01 GMT"),
        Some(1709164801)
    );
    // No such date, out of range fields, missing parts.
    assert_eq!(parse_cookie_date("Thu, 29 Feb 2023 00:00:00 GMT"), None);
    assert_eq!(parse_cookie_date("Thu, 31 Apr 2023 00:00:00 GMT"), None);
    assert_eq!(parse_cookie_date("Thu, 01 Jan 1600 00:00:00 GMT"), None);
    assert_eq!(parse_cookie_date("Thu, 01 Jan 2023 24:00:00 GMT"), None);
    assert_eq!(parse_cookie_date("Thu, 01 Jan 2023 GMT"), None);
    assert_eq!(parse_cookie_date(""), None);
    assert_eq!(parse_cookie_date("garbage"), None);
    assert_eq!(parse_cookie_date("1:2:3 ☃ 4 Jan 2000"), Some(946947723));
}

#[test]
fn paths() {
    assert_eq!(default_path(&url("http://a.test/")), "/");
    assert_eq!(default_path(&url("http://a.test/x")), "/");
    assert_eq!(default_path(&url("http://a.test/x/y/z")), "/x/y");
    assert!(path_match("/x/y", "/x"));
    assert!(path_match("/x/", "/x/"));
    assert!(!path_match("/xy", "/x"));
    assert!(path_match("/x", "/"));
    assert!(domain_match("a.b.test", "b.test"));
    assert!(!domain_match("ab.test", "b.test"));
    assert!(!domain_match("1.2.3.4", "2.3.4"));
}

#[test]
fn set_and_get() {
    let jar = CookieJar::new();
    let page = url("http://a.test/dir/page");
    let ctx = CookieContext::HTTP_SAME_SITE;
    jar.set_cookie_at(&page, "a=1", ctx, 1000).unwrap();
    jar.set_cookie_at(&page, "b=2; Path=/", ctx, 1000).unwrap();
    jar.set_cookie_at(&page, " c = 3 ; HttpOnly", ctx, 1000)
        .unwrap();
    // Longer paths first, then creation order.
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1000).as_deref(),
        Some("a=1; c=3; b=2")
    );
    // The default path is /dir: not sent to /.
    assert_eq!(
        jar.cookie_string_at(&url("http://a.test/"), ctx, 1000)
            .as_deref(),
        Some("b=2")
    );
    // Host-only: not sent to a subdomain.
    assert_eq!(
        jar.cookie_string_at(&url("http://x.a.test/"), ctx, 1000),
        None
    );
    // HttpOnly is hidden from scripts.
    assert_eq!(
        jar.cookie_string_at(&page, CookieContext::SCRIPT, 1000)
            .as_deref(),
        Some("a=1; b=2")
    );
    // Overwrite keeps the position (creation time).
    jar.set_cookie_at(&page, "a=9", ctx, 1001).unwrap();
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1001).as_deref(),
        Some("a=9; c=3; b=2")
    );
    // A script cannot overwrite an HttpOnly cookie, nor set one.
    assert_eq!(
        jar.set_cookie_at(&page, "c=x", CookieContext::SCRIPT, 1001),
        Err(CookieRejected::HttpOnly)
    );
    assert_eq!(
        jar.set_cookie_at(&page, "d=x; HttpOnly", CookieContext::SCRIPT, 1001),
        Err(CookieRejected::HttpOnly)
    );
    // Max-Age=0 deletes.
    jar.set_cookie_at(&page, "a=; Max-Age=0", ctx, 1002)
        .unwrap();
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1002).as_deref(),
        Some("c=3; b=2")
    );
}

#[test]
fn expiry() {
    let jar = CookieJar::new();
    let page = url("http://a.test/");
    let ctx = CookieContext::HTTP_SAME_SITE;
    jar.set_cookie_at(&page, "m=1; Max-Age=10", ctx, 1000)
        .unwrap();
    jar.set_cookie_at(
        &page,
        "e=1; Expires=Thu, 01 Jan 1970 00:20:00 GMT",
        ctx,
        1000,
    )
    .unwrap();
    // Max-Age wins over Expires, whatever the order.
    jar.set_cookie_at(
        &page,
        "both=1; Max-Age=5; Expires=Thu, 01 Jan 1970 00:20:00 GMT",
        ctx,
        1000,
    )
    .unwrap();
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1004).as_deref(),
        Some("m=1; e=1; both=1")
    );
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1005).as_deref(),
        Some("m=1; e=1")
    );
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 1010).as_deref(),
        Some("e=1")
    );
    assert_eq!(jar.cookie_string_at(&page, ctx, 1200), None);
    // A bad Max-Age or Expires is ignored (a session cookie).
    jar.set_cookie_at(&page, "s=1; Max-Age=1x; Expires=never", ctx, 1000)
        .unwrap();
    assert_eq!(
        jar.cookie_string_at(&page, ctx, 10_000_000).as_deref(),
        Some("s=1")
    );
    // Far-future expiries are capped to 400 days.
    jar.set_cookie_at(&page, "far=1; Max-Age=99999999999999999999999", ctx, 0)
        .unwrap();
    let far = jar.cookies().into_iter().find(|c| c.name == "far").unwrap();
    assert_eq!(far.expiry, Some(MAX_AGE_CAP));
}

#[test]
fn malformed_lines() {
    let jar = CookieJar::new();
    let page = url("http://a.test/");
    let ctx = CookieContext::HTTP_SAME_SITE;
    assert_eq!(
        jar.set_cookie(&page, "a=b\x01c", ctx),
        Err(CookieRejected::ControlCharacter)
    );
    assert_eq!(
        jar.set_cookie(&page, "a=b\nc=d", ctx),
        Err(CookieRejected::ControlCharacter)
    );
    assert_eq!(jar.set_cookie(&page, "", ctx), Err(CookieRejected::Empty));
    assert_eq!(
        jar.set_cookie(&page, " = ; Path=/", ctx),
        Err(CookieRejected::Empty)
    );
    assert_eq!(
        jar.set_cookie(&page, &format!("a={}", "x".repeat(4096)), ctx),
        Err(CookieRejected::TooLong)
    );
    // No "=": an empty name.
    jar.set_cookie(&page, "lonely", ctx).unwrap();
    // Attributes only; unknown attributes and a bad Path are ignored.
    jar.set_cookie(&page, "x=1;;; Foo=bar; Path=relative; =", ctx)
        .unwrap();
    // A tab inside is fine (not a CTL for this rule).
    jar.set_cookie(&page, "t=a\tb", ctx).unwrap();
    assert_eq!(
        jar.cookie_string(&page, ctx).as_deref(),
        Some("lonely; x=1; t=a\tb")
    );
    // Non-HTTP(S) URLs have no cookies.
    assert_eq!(
        jar.set_cookie(&url("data:text/plain,x"), "a=1", ctx),
        Err(CookieRejected::NoHost)
    );
}

#[test]
fn domains_secure_and_same_site() {
    let jar = CookieJar::new();
    let ctx = CookieContext::HTTP_SAME_SITE;
    let sub = url("http://www.a.test/");
    jar.set_cookie(&sub, "d=1; Domain=.A.test", ctx).unwrap();
    assert_eq!(
        jar.set_cookie(&sub, "e=1; Domain=other.test", ctx),
        Err(CookieRejected::DomainMismatch)
    );
    assert_eq!(
        jar.cookie_string(&url("http://a.test/"), ctx).as_deref(),
        Some("d=1")
    );
    assert_eq!(
        jar.cookie_string(&url("http://x.a.test/"), ctx).as_deref(),
        Some("d=1")
    );
    assert_eq!(jar.cookie_string(&url("http://xa.test/"), ctx), None);
    // Secure needs a secure scheme, both ways.
    assert_eq!(
        jar.set_cookie(&sub, "s=1; Secure", ctx),
        Err(CookieRejected::Insecure)
    );
    let secure = url("https://www.a.test/");
    jar.set_cookie(&secure, "s=1; Secure", ctx).unwrap();
    assert_eq!(jar.cookie_string(&secure, ctx).as_deref(), Some("d=1; s=1"));
    assert_eq!(jar.cookie_string(&sub, ctx).as_deref(), Some("d=1"));
    // An insecure origin cannot shadow a secure cookie's name.
    assert_eq!(
        jar.set_cookie(&sub, "s=2", ctx),
        Err(CookieRejected::Insecure)
    );
    // SameSite: cross-site contexts neither set nor get Lax/Strict.
    let cross = CookieContext {
        same_site: false,
        ..ctx
    };
    assert_eq!(
        jar.set_cookie(&sub, "l=1", cross),
        Err(CookieRejected::SameSite)
    );
    assert_eq!(
        jar.set_cookie(&secure, "n=1; SameSite=None", cross),
        Err(CookieRejected::SameSite)
    );
    jar.set_cookie(&secure, "n=1; SameSite=None; Secure", cross)
        .unwrap();
    jar.set_cookie(&secure, "st=1; SameSite=Strict", ctx)
        .unwrap();
    assert_eq!(jar.cookie_string(&secure, cross).as_deref(), Some("n=1"));
    let nav = CookieContext {
        safe_top_level_navigation: true,
        ..cross
    };
    assert_eq!(
        jar.cookie_string(&secure, nav).as_deref(),
        Some("d=1; s=1; n=1")
    );
    // Prefixes.
    assert_eq!(
        jar.set_cookie(&secure, "__Secure-a=1", ctx),
        Err(CookieRejected::Prefix)
    );
    jar.set_cookie(&secure, "__Secure-a=1; Secure", ctx)
        .unwrap();
    assert_eq!(
        jar.set_cookie(&secure, "__Host-a=1; Secure", ctx),
        Err(CookieRejected::Prefix)
    );
    assert_eq!(
        jar.set_cookie(&secure, "__Host-a=1; Secure; Path=/; Domain=a.test", ctx),
        Err(CookieRejected::Prefix)
    );
    jar.set_cookie(&secure, "__Host-a=1; Secure; Path=/", ctx)
        .unwrap();
    assert_eq!(
        jar.set_cookie(&secure, "=__Host-x", ctx),
        Err(CookieRejected::Prefix)
    );
}

#[test]
fn same_site_decision() {
    let page = url("https://a.test/");
    let a = url("https://a.test:8443/x").origin();
    let b = url("https://b.test/").origin();
    assert!(is_same_site(&page, None));
    assert!(is_same_site(&page, Some(&a)));
    assert!(!is_same_site(&page, Some(&b)));
    assert!(!is_same_site(&page, Some(&url("data:,x").origin())));
}
