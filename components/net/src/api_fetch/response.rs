//! The response script sees: the filtered responses (basic, cors, opaque,
//! opaque-redirect) of <https://fetch.spec.whatwg.org/#concept-filtered-response>.

use jsprof_document::{CredentialsMode, HeaderList, ResponseTainting};
use url::Url;

use super::headers::{
    extract_token_list, is_cors_safelisted_response_header_name, is_forbidden_response_header_name,
};
use super::FetchState;
use crate::RawResponse;

/// <https://fetch.spec.whatwg.org/#concept-response-type>
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResponseType {
    /// `basic`.
    Basic,
    /// `cors`.
    Cors,
    /// `opaque`.
    Opaque,
    /// `opaqueredirect`.
    OpaqueRedirect,
}

/// A filtered response as script sees it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiResponse {
    /// The type.
    pub response_type: ResponseType,
    /// The URL list (empty for an opaque response).
    pub url_list: Vec<Url>,
    /// The status (0 for opaque responses).
    pub status: u16,
    /// The status message.
    pub status_text: String,
    /// The header list, filtered for the type.
    pub headers: HeaderList,
    /// The body (empty for opaque responses).
    pub body: Vec<u8>,
}

impl ApiResponse {
    /// <https://fetch.spec.whatwg.org/#concept-response-url>: the last URL
    /// of the URL list, `None` when it is empty.
    pub fn url(&self) -> Option<&Url> {
        self.url_list.last()
    }
}

/// Main fetch, step 14: the filtered response for the request's response
/// tainting (<https://fetch.spec.whatwg.org/#concept-filtered-response>).
pub(super) fn filtered_response(state: &FetchState, response: RawResponse) -> ApiResponse {
    match state.tainting {
        // "basic": a basic filtered response: the header list excludes
        // forbidden response-header names.
        ResponseTainting::Basic => ApiResponse {
            response_type: ResponseType::Basic,
            url_list: state.url_list.clone(),
            status: response.status,
            status_text: response.status_text,
            headers: response
                .headers
                .iter()
                .filter(|(name, _)| !is_forbidden_response_header_name(name))
                .collect(),
            body: response.body,
        },
        // "cors": a CORS filtered response: only CORS-safelisted response
        // header names given the CORS-exposed header-name list (step 14.1:
        // `Access-Control-Expose-Headers`; `*` exposes every name when the
        // credentials mode is not "include").
        ResponseTainting::Cors => {
            let exposed = extract_token_list(&response.headers, "Access-Control-Expose-Headers")
                .ok()
                .flatten()
                .unwrap_or_default();
            let wildcard = state.request.credentials != CredentialsMode::Include
                && exposed.iter().any(|n| n == "*");
            let exposed: Vec<String> = if wildcard {
                response.headers.iter().map(|(n, _)| n.to_owned()).collect()
            } else {
                exposed
            };
            ApiResponse {
                response_type: ResponseType::Cors,
                url_list: state.url_list.clone(),
                status: response.status,
                status_text: response.status_text,
                headers: response
                    .headers
                    .iter()
                    .filter(|(name, _)| is_cors_safelisted_response_header_name(name, &exposed))
                    .collect(),
                body: response.body,
            }
        }
        // "opaque": an opaque filtered response: type "opaque", URL list
        // empty, status 0, status message empty, header list empty, body
        // null.
        ResponseTainting::Opaque => ApiResponse {
            response_type: ResponseType::Opaque,
            url_list: Vec::new(),
            status: 0,
            status_text: String::new(),
            headers: HeaderList::new(),
            body: Vec::new(),
        },
    }
}
