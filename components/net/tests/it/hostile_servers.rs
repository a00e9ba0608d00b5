//! Servers built to misbehave: a 200 MB body and a server that trickles a
//! byte a second. Each fetch ends with its documented error within a
//! generous bound (a hang-catcher, not a performance check), and the
//! connection is closed: the server's thread sees the end of the
//! connection and exits (nothing is left behind).

use std::io::{Read, Write};
use std::net::TcpListener;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use jsprof_net::config::DEFAULT_MAX_BODY;
use jsprof_net::{Fetcher, HopRequest, NetConfig, NetError};
use url::Url;

/// Far longer than any of these fetches may take.
const HANG_BOUND: Duration = Duration::from_secs(60);

/// A one-connection server: reads the request head, then runs `answer` on
/// the stream until it fails or returns. Returns the URL and the server's
/// thread (which ends once the client has closed the connection).
fn one_shot_server(
    answer: impl FnOnce(&mut std::net::TcpStream) -> std::io::Result<()> + Send + 'static,
) -> (Url, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    let thread = std::thread::spawn(move || {
        let (mut stream, _) = listener.accept().unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8];
        while !head.ends_with(b"\r\n\r\n") {
            if stream.read(&mut byte).unwrap_or(0) == 0 {
                return;
            }
            head.push(byte[0]);
        }
        // An error is the client closing the connection: the end here.
        let _ = answer(&mut stream);
    });
    (
        Url::parse(&format!("http://127.0.0.1:{port}/resource")).unwrap(),
        thread,
    )
}

fn get(fetcher: &Fetcher, url: &Url) -> Result<jsprof_net::RawResponse, NetError> {
    fetcher.fetch_hop(&HopRequest::get(url.clone()))
}

/// Writes 200 MB of body in 64 KiB pieces (or until the client goes).
fn write_200_mb(stream: &mut std::net::TcpStream) -> std::io::Result<()> {
    let piece = vec![b'x'; 64 * 1024];
    for _ in 0..(200 * 1024 * 1024 / piece.len()) {
        stream.write_all(&piece)?;
    }
    Ok(())
}

/// Joins `thread`, failing the test if it does not end within the bound.
fn join_within(thread: JoinHandle<()>, bound: Duration) {
    let start = Instant::now();
    while !thread.is_finished() {
        assert!(
            start.elapsed() < bound,
            "the server thread is still running"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    thread.join().unwrap();
}

/// A 200 MB body with its length declared is refused before any of it is
/// read (NetConfig::max_body, 64 MiB by default).
#[test]
fn a_declared_200_mb_body_is_refused_at_once() {
    let (url, server) = one_shot_server(|stream| {
        stream.write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 209715200\r\n\r\n")?;
        write_200_mb(stream)
    });
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let start = Instant::now();
    let error = get(&fetcher, &url).unwrap_err();
    assert_too_large(&error);
    assert!(
        error
            .to_string()
            .contains("larger than the 67108864-byte limit"),
        "{error}"
    );
    assert!(start.elapsed() < HANG_BOUND);
    drop(fetcher);
    join_within(server, HANG_BOUND);
}

/// A 200 MB body without a declared length (chunked) is read up to the
/// limit and refused there: memory stays bounded by the limit.
#[test]
fn an_undeclared_200_mb_body_is_cut_off_at_the_limit() {
    let (url, server) = one_shot_server(|stream| {
        stream.write_all(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")?;
        let piece = vec![b'x'; 64 * 1024];
        for _ in 0..(200 * 1024 * 1024 / piece.len()) {
            stream.write_all(format!("{:x}\r\n", piece.len()).as_bytes())?;
            stream.write_all(&piece)?;
            stream.write_all(b"\r\n")?;
        }
        stream.write_all(b"0\r\n\r\n")
    });
    let fetcher = Fetcher::new(NetConfig::default()).unwrap();
    let start = Instant::now();
    let error = get(&fetcher, &url).unwrap_err();
    assert_too_large(&error);
    assert!(start.elapsed() < HANG_BOUND);
    drop(fetcher);
    join_within(server, HANG_BOUND);
}

/// Fetches from a server that sends `head` at once and then `trickled` a
/// byte a second, with a 3 s request timeout: the fetch times out (the
/// timeout covers the whole request, from resolution to the end of the
/// body, so a slow trickle cannot keep a fetch alive by sending just
/// enough), and the server's thread ends at its next write.
fn assert_trickle_times_out(head: &'static [u8], trickled: &'static [u8]) {
    let (url, server) = one_shot_server(move |stream| {
        stream.write_all(head)?;
        for byte in trickled {
            stream.write_all(&[*byte])?;
            stream.flush()?;
            std::thread::sleep(Duration::from_secs(1));
        }
        Ok(())
    });
    let fetcher = Fetcher::new(NetConfig {
        timeout: Duration::from_secs(3),
        ..NetConfig::default()
    })
    .unwrap();
    let start = Instant::now();
    let error = get(&fetcher, &url).unwrap_err();
    assert!(
        matches!(&error, NetError::Timeout { after, .. } if *after == Duration::from_secs(3)),
        "{error:?}"
    );
    assert!(start.elapsed() < HANG_BOUND);
    drop(fetcher);
    join_within(server, HANG_BOUND);
}

/// A body trickling a byte a second.
#[test]
fn a_body_trickling_a_byte_a_second_times_out() {
    assert_trickle_times_out(
        b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n",
        &[b'x'; 100],
    );
}

/// A response head trickling a byte a second.
#[test]
fn a_head_trickling_a_byte_a_second_times_out() {
    assert_trickle_times_out(b"", b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok");
}

/// The error of a body over the default limit.
fn assert_too_large(error: &NetError) {
    assert!(
        matches!(error, NetError::BodyTooLarge { limit, .. } if *limit == DEFAULT_MAX_BODY),
        "{error:?}"
    );
}
