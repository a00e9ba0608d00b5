//! Fuzzes the classic script fetch (CORS, redirects, CORP, muted errors) and
//! timestamp coarsening.
//!
//! Input: byte 0 picks the crossorigin attribute and the document's COEP,
//! byte 1 the document URL; the rest are responses separated by `\0`, each
//! a status line (3 digits) then `\n`-separated `Name: value` headers.
//! Checks: the fetch ends within the redirect limit; a no-cors fetch never
//! fails the CORS check; a script from another origin that runs unmuted was
//! fetched in cors mode with a passing `Access-Control-Allow-Origin`; the
//! `Origin` header is sent exactly when the tainting is "cors".
#![no_main]

use jsprof_document::script::REDIRECT_LIMIT;
use jsprof_document::{
    coarsen_time, fetch_classic_script, BlockReason, CorsSettings, EmbedderPolicyValue, FetchStep,
    HeaderList, Origin, ResponseInfo, ResponseTainting, ScriptCorsOutcome, ScriptFetchParams,
};
use libfuzzer_sys::fuzz_target;
use url::Url;

const DOCUMENTS: [&str; 4] = [
    "https://page.test/index.html",
    "http://127.0.0.1:8000/",
    "file:///home/me/page.html",
    "data:text/html,x",
];

const SCRIPTS: [&str; 4] = [
    "https://page.test/a.js",
    "https://cdn.test/a.js",
    "data:text/javascript,1",
    "file:///home/me/a.js",
];

fn parse_response(bytes: &[u8]) -> ResponseInfo {
    let mut lines = bytes.split(|&b| b == b'\n');
    let status = lines
        .next()
        .and_then(|l| std::str::from_utf8(l).ok())
        .and_then(|l| l.trim().parse::<u16>().ok())
        .unwrap_or(200);
    let mut headers = HeaderList::new();
    for line in lines {
        if let Some(colon) = line.iter().position(|&b| b == b':') {
            let name = String::from_utf8_lossy(&line[..colon]).into_owned();
            let value = line[colon + 1..]
                .strip_prefix(b" ")
                .unwrap_or(&line[colon + 1..]);
            headers.append(&name, value.to_vec());
        }
    }
    ResponseInfo::new(status, headers)
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 2 {
        return;
    }
    let cors_setting = match data[0] % 3 {
        0 => CorsSettings::NoCors,
        1 => CorsSettings::Anonymous,
        _ => CorsSettings::UseCredentials,
    };
    let coep = match (data[0] / 3) % 3 {
        0 => EmbedderPolicyValue::UnsafeNone,
        1 => EmbedderPolicyValue::RequireCorp,
        _ => EmbedderPolicyValue::Credentialless,
    };
    let document = Url::parse(DOCUMENTS[usize::from(data[1] % 4)]).unwrap();
    let script = Url::parse(SCRIPTS[usize::from((data[1] / 4) % 4)]).unwrap();
    let client_origin = Origin::of(&document);
    let params = ScriptFetchParams {
        url: script,
        cors_setting,
        client_origin: client_origin.clone(),
        embedder_policy: coep,
    };

    let mut responses = data[2..].split(|&b| b == 0).map(parse_response);
    let mut step = fetch_classic_script(params);
    let mut hops = 0u32;
    let mut last_tainting = ResponseTainting::Basic;
    let mut last_acao_ok = false;
    let outcome = loop {
        match step {
            FetchStep::Done(outcome) => break outcome,
            FetchStep::Request(pending) => {
                hops += 1;
                assert!(hops <= REDIRECT_LIMIT + 1, "too many hops");
                let request = pending.request().clone();
                assert_eq!(
                    request.origin_header.is_some(),
                    request.tainting == ResponseTainting::Cors
                );
                let Some(response) = responses.next() else {
                    return;
                };
                last_tainting = request.tainting;
                last_acao_ok = response
                    .headers
                    .get("Access-Control-Allow-Origin")
                    .is_some();
                step = pending.process_response(&response);
            }
        }
    };

    match outcome {
        ScriptCorsOutcome::Blocked(BlockReason::CorsCheckFailed) => {
            assert_ne!(cors_setting, CorsSettings::NoCors);
        }
        ScriptCorsOutcome::Run {
            muted_errors,
            response_url,
        } => {
            assert_eq!(muted_errors, last_tainting == ResponseTainting::Opaque);
            if muted_errors {
                assert_eq!(cors_setting, CorsSettings::NoCors);
            }
            if !muted_errors
                && !Origin::of(&response_url).same_origin(&client_origin)
                && response_url.scheme() != "data"
            {
                // Unmuted cross-origin code passed a CORS check.
                assert_ne!(cors_setting, CorsSettings::NoCors);
                if last_tainting == ResponseTainting::Cors {
                    assert!(last_acao_ok);
                }
            }
        }
        ScriptCorsOutcome::Blocked(_) => {}
    }

    // Coarsening on fuzzed timestamps: never later than the input rounded
    // to the nanosecond, never a full resolution step earlier, monotonic.
    if data.len() >= 18 {
        let t = f64::from_le_bytes(data[2..10].try_into().unwrap());
        let u = f64::from_le_bytes(data[10..18].try_into().unwrap());
        for isolated in [false, true] {
            let c = coarsen_time(t, isolated);
            if t.is_finite() && t.abs() < 1e9 {
                let step = if isolated { 0.005 } else { 0.1 };
                let half_ns = 5e-7;
                assert!(c <= t + half_ns + 1e-9 && t - c < step + 1e-9, "{t} -> {c}");
                if u.is_finite() && u.abs() < 1e9 && t <= u {
                    assert!(c <= coarsen_time(u, isolated), "monotonic: {t} {u}");
                }
            }
        }
    }
});
