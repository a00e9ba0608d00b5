//! `file:` URLs. Fetch leaves them "as an exercise for the reader"; here a
//! file's bytes are a 200 response with a `Content-Type` guessed from its
//! extension, and a missing file or a directory is a network error.

use std::io::Read;
use std::path::{Path, PathBuf};

use url::Url;

use crate::NetError;

/// The MIME type for a file name's extension, for `file:` responses and
/// the test server's static files: the web's usual types first
/// (`text/javascript` for scripts, as HTML requires), then `mime_guess`'s
/// table; `None` when unknown.
pub fn content_type_for_path(path: &Path) -> Option<String> {
    let extension = path.extension()?.to_str()?.to_ascii_lowercase();
    let known = match extension.as_str() {
        "html" | "htm" => "text/html",
        "xhtml" | "xht" => "application/xhtml+xml",
        "js" | "mjs" | "cjs" => "text/javascript",
        "css" => "text/css",
        "json" | "map" => "application/json",
        "txt" | "text" => "text/plain",
        "xml" => "application/xml",
        "svg" => "image/svg+xml",
        "wasm" => "application/wasm",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "ico" => "image/x-icon",
        "woff" => "font/woff",
        "woff2" => "font/woff2",
        _ => {
            return mime_guess::from_ext(&extension)
                .first_raw()
                .map(str::to_owned)
        }
    };
    Some(known.to_owned())
}

/// A file read for a `file:` URL.
#[derive(Debug)]
pub(crate) struct FileResponse {
    pub body: Vec<u8>,
    pub content_type: Option<String>,
}

/// Reads the file a `file:` URL names, at most `max_body` bytes.
pub(crate) fn fetch_file(
    url: &Url,
    max_body: usize,
    with_body: bool,
) -> Result<FileResponse, NetError> {
    let path: PathBuf = url
        .to_file_path()
        .map_err(|()| NetError::BadFileUrl { url: url.clone() })?;
    let read_error = |error: std::io::Error, path: &Path| match error.kind() {
        std::io::ErrorKind::NotFound => NetError::FileNotFound {
            path: path.to_owned(),
        },
        _ => NetError::FileRead {
            path: path.to_owned(),
            detail: error.to_string(),
        },
    };
    let metadata = std::fs::metadata(&path).map_err(|e| read_error(e, &path))?;
    if metadata.is_dir() {
        return Err(NetError::FileIsDirectory { path });
    }
    let mut body = Vec::new();
    if with_body {
        let file = std::fs::File::open(&path).map_err(|e| read_error(e, &path))?;
        // Read one byte past the limit to tell "exactly the limit" from
        // "larger" without trusting the metadata (the file may grow, or be a
        // FIFO or device).
        let limit = u64::try_from(max_body)
            .unwrap_or(u64::MAX)
            .saturating_add(1);
        file.take(limit)
            .read_to_end(&mut body)
            .map_err(|e| read_error(e, &path))?;
        if body.len() > max_body {
            return Err(NetError::BodyTooLarge {
                url: url.clone(),
                limit: max_body,
            });
        }
    }
    Ok(FileResponse {
        body,
        content_type: content_type_for_path(&path),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types() {
        let ct = |p: &str| content_type_for_path(Path::new(p));
        assert_eq!(ct("/a/index.HTML").as_deref(), Some("text/html"));
        assert_eq!(ct("x.js").as_deref(), Some("text/javascript"));
        assert_eq!(ct("x.mjs").as_deref(), Some("text/javascript"));
        assert_eq!(ct("x.css").as_deref(), Some("text/css"));
        assert_eq!(ct("x.json").as_deref(), Some("application/json"));
        assert_eq!(ct("x.txt").as_deref(), Some("text/plain"));
        assert_eq!(ct("x.wasm").as_deref(), Some("application/wasm"));
        assert_eq!(ct("x.png").as_deref(), Some("image/png"));
        assert_eq!(ct("x.pdf").as_deref(), Some("application/pdf"));
        assert_eq!(ct("x.unknown-ext"), None);
        assert_eq!(ct("Makefile"), None);
    }
}
