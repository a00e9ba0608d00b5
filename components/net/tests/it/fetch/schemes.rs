//! `data:`, `file:`, `blob:`, `about:blank` and unsupported schemes.

use std::sync::Arc;

use jsprof_document::Origin;
use jsprof_net::{BlobStore, Fetcher, HopRequest, Method, NetConfig, NetError, Url};

use super::get;

// ------------------------------------------------------------------ data:

#[test]
fn data_urls() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let fetch = |url: &str| get(&fetcher, &Url::parse(url).unwrap());
    let response = fetch("data:text/javascript;base64,YWxlcnQoMSk=").unwrap();
    assert_eq!(
        (response.status, response.status_text.as_str()),
        (200, "OK")
    );
    assert_eq!(response.body, b"alert(1)");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    let response = fetch("data:text/html;charset=UTF-8,%3Cp%3Ehi%20there").unwrap();
    assert_eq!(response.body, b"<p>hi there");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/html;charset=UTF-8")
    );
    let response = fetch("data:,").unwrap();
    assert!(response.body.is_empty());
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/plain;charset=US-ASCII")
    );
    for bad in ["data:no-comma", "data:;base64,!!!!", "data:;base64,a"] {
        let error = fetch(bad).unwrap_err();
        assert!(
            matches!(error, NetError::BadDataUrl { .. }),
            "{bad}: {error:?}"
        );
        assert!(error.to_string().starts_with("bad data: URL"));
    }
    // Navigations to data: URLs work (no redirect involved).
    let followed = fetcher
        .fetch_following(&Url::parse("data:text/html,x").unwrap(), &[])
        .unwrap();
    assert_eq!(followed.response.body, b"x");
}

// ------------------------------------------------------------------ file:

#[test]
fn file_urls() {
    let dir = std::env::temp_dir().join(format!("jsprof-net-file-test-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::write(dir.join("page.html"), "<!doctype html>").unwrap();
    std::fs::write(dir.join("app.js"), "1+1").unwrap();
    std::fs::write(dir.join("blob.bin"), [0u8; 4]).unwrap();
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let file_url = |name: &str| Url::from_file_path(dir.join(name)).unwrap();

    let response = get(&fetcher, &file_url("page.html")).unwrap();
    assert_eq!(response.status, 200);
    assert_eq!(response.body, b"<!doctype html>");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/html")
    );
    let response = get(&fetcher, &file_url("app.js")).unwrap();
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    let response = get(&fetcher, &file_url("blob.bin")).unwrap();
    assert_eq!(response.body.len(), 4);

    let error = get(&fetcher, &file_url("missing.html")).unwrap_err();
    assert!(matches!(error, NetError::FileNotFound { .. }), "{error:?}");
    assert!(error.to_string().starts_with("file not found"));
    let error = get(&fetcher, &file_url("sub")).unwrap_err();
    assert!(
        matches!(error, NetError::FileIsDirectory { .. }),
        "{error:?}"
    );
    let error = get(&fetcher, &Url::parse("file://remote-host/share/x").unwrap()).unwrap_err();
    assert!(matches!(error, NetError::BadFileUrl { .. }), "{error:?}");

    // Larger than max_body (8): "<!doctype html>" is 15 bytes.
    let big = Fetcher::new(NetConfig {
        max_body: 8,
        ..NetConfig::default()
    })
    .unwrap();
    std::fs::write(dir.join("big.txt"), "0123456789").unwrap();
    let error = get(&big, &file_url("big.txt")).unwrap_err();
    assert!(
        matches!(error, NetError::BodyTooLarge { limit: 8, .. }),
        "{error:?}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

// ------------------------------------------------------------------ blob:

#[test]
fn blob_urls() {
    let store = Arc::new(BlobStore::new());
    let fetcher = Fetcher::new(NetConfig {
        blob_store: store.clone(),
        ..NetConfig::default()
    })
    .unwrap();
    let origin = Origin::of(&Url::parse("http://web-platform.test:8000/").unwrap());
    let url = store.register(&origin, b"console.log(1)".to_vec(), "text/javascript");
    let response = get(&fetcher, &url).unwrap();
    assert_eq!(response.body, b"console.log(1)");
    assert_eq!(
        response.header("Content-Type").as_deref(),
        Some("text/javascript")
    );
    assert_eq!(response.header("Content-Length").as_deref(), Some("14"));
    let post = HopRequest {
        method: Method::Post,
        ..HopRequest::get(url.clone())
    };
    assert!(matches!(
        fetcher.fetch_hop(&post),
        Err(NetError::InvalidRequest { .. })
    ));

    assert!(store.revoke(&url));
    let error = get(&fetcher, &url).unwrap_err();
    assert!(matches!(error, NetError::UnknownBlob { .. }), "{error:?}");
    assert!(error.to_string().contains("unknown blob: URL"));
    let never =
        Url::parse("blob:http://web-platform.test:8000/00000000-0000-4000-8000-000000000000")
            .unwrap();
    assert!(matches!(
        get(&fetcher, &never),
        Err(NetError::UnknownBlob { .. })
    ));
    // Another store's URLs are unknown here.
    let other = BlobStore::new().register(&origin, Vec::new(), "");
    assert!(matches!(
        get(&fetcher, &other),
        Err(NetError::UnknownBlob { .. })
    ));
}

// ------------------------------------------------------------ other schemes

#[test]
fn about_blank_and_unsupported_schemes() {
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let response = get(&fetcher, &Url::parse("about:blank").unwrap()).unwrap();
    assert_eq!(response.status, 200);
    assert!(response.body.is_empty());
    assert_eq!(
        response.header("content-type").as_deref(),
        Some("text/html;charset=utf-8")
    );
    for url in [
        "about:srcdoc",
        "ftp://example.test/",
        "javascript:1",
        "mailto:a@b.test",
    ] {
        let error = get(&fetcher, &Url::parse(url).unwrap()).unwrap_err();
        assert!(
            matches!(error, NetError::UnsupportedScheme { .. }),
            "{url}: {error:?}"
        );
    }
}
