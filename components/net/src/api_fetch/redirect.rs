//! HTTP-redirect fetch (<https://fetch.spec.whatwg.org/#http-redirect-fetch>).

use jsprof_document::{Origin, ResponseTainting};
use url::Url;

use super::{FetchState, RequestMode};
use crate::{Method, NetError, RawResponse, REDIRECT_LIMIT};

/// <https://fetch.spec.whatwg.org/#http-redirect-fetch> given the redirect
/// `response` and its location URL: updates the request for the next hop
/// (steps 6-18); main fetch then runs again (step 22).
pub(super) fn http_redirect_fetch(
    state: &mut FetchState,
    response: &RawResponse,
    location: Url,
) -> Result<(), NetError> {
    // Step 6: If locationURL's scheme is not an HTTP(S) scheme, then return
    // a network error.
    if !matches!(location.scheme(), "http" | "https") {
        return Err(NetError::RedirectToNonHttpScheme {
            url: response.url.clone(),
            location: location.into(),
        });
    }
    // Step 7: If request's redirect count is 20, then return a network
    // error.
    if state.redirect_count == REDIRECT_LIMIT {
        let mut url_list = state.url_list.clone();
        url_list.push(location);
        return Err(NetError::TooManyRedirects {
            url_list,
            looped_at: None,
        });
    }
    // Step 8: Increase request's redirect count by 1.
    state.redirect_count += 1;
    let includes_credentials = !location.username().is_empty() || location.password().is_some();
    // Step 9: If request's mode is "cors", locationURL includes
    // credentials, and request's origin is not same origin with
    // locationURL's origin, then return a network error.
    if state.request.mode == RequestMode::Cors
        && includes_credentials
        && !state.request.origin.same_origin(&Origin::of(&location))
    {
        return Err(state.network_error("redirected to a URL with credentials"));
    }
    // Step 10: If request's response tainting is "cors" and locationURL
    // includes credentials, then return a network error.
    if state.tainting == ResponseTainting::Cors && includes_credentials {
        return Err(state.network_error("redirected to a URL with credentials"));
    }
    // Step 11: If internalResponse's status is not 303, request's body is
    // non-null, and request's body's source is null: never (the body is
    // bytes, its own source).
    // Step 12: If internalResponse's status is 301 or 302 and request's
    // method is `POST`, or internalResponse's status is 303 and request's
    // method is not `GET` or `HEAD`: set request's method to `GET`, its
    // body to null, and remove each request-body-header name from its
    // header list.
    if (matches!(response.status, 301 | 302) && state.request.method == Method::Post)
        || (response.status == 303 && !matches!(state.request.method, Method::Get | Method::Head))
    {
        state.request.method = Method::Get;
        state.request.body = None;
        state.request.headers.retain(|(name, _)| {
            ![
                "Content-Encoding",
                "Content-Language",
                "Content-Location",
                "Content-Type",
            ]
            .iter()
            .any(|n| name.eq_ignore_ascii_case(n))
        });
    }
    // Step 13: If request's current URL's origin is not same origin with
    // locationURL's origin, then remove `Authorization` from the header
    // list.
    let current_origin = Origin::of(&state.current_url);
    let location_origin = Origin::of(&location);
    if !current_origin.same_origin(&location_origin) {
        state
            .request
            .headers
            .retain(|(name, _)| !name.eq_ignore_ascii_case("Authorization"));
    }
    // Step 14: If request's current URL's origin is not same origin with
    // locationURL's origin and request's origin is not same origin with
    // request's current URL's origin, then set request's tainted origin
    // flag.
    if !current_origin.same_origin(&location_origin)
        && !state.request.origin.same_origin(&current_origin)
    {
        state.tainted_origin = true;
    }
    // Step 18: Append locationURL to request's URL list.
    state.url_list.push(location.clone());
    state.current_url = location;
    // Step 22: Return the result of running main fetch given fetchParams
    // and true (the caller's loop).
    Ok(())
}
