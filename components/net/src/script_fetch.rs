//! Driving [`jsprof_document`]'s classic-script fetch state machine with a
//! [`Fetcher`]: one [`Fetcher::fetch_hop`] per hop it asks for.

use jsprof_document::{fetch_classic_script, FetchStep, ScriptCorsOutcome, ScriptFetchParams};
use url::Url;

use crate::{Fetcher, HopRequest, NetError, RawResponse};

/// The end of a classic script fetch.
#[derive(Clone, Debug)]
pub struct ClassicScriptFetch {
    /// Run (with muted errors or not) or blocked (fire `error`).
    pub outcome: ScriptCorsOutcome,
    /// Every URL requested, in order.
    pub url_list: Vec<Url>,
    /// The last response received (the script's source when the outcome is
    /// `Run`), `None` if the state machine blocked before any request.
    pub response: Option<RawResponse>,
}

impl Fetcher {
    /// Fetches a classic script: `jsprof_document::fetch_classic_script`
    /// decides each hop's `Origin` header and credentials and checks CORS,
    /// this fetcher sends the hops. A network error ends the fetch with
    /// `Err` (the element gets an `error` event, as for a blocked outcome).
    pub fn fetch_classic_script(
        &self,
        params: ScriptFetchParams,
    ) -> Result<ClassicScriptFetch, NetError> {
        let mut step = fetch_classic_script(params);
        let mut url_list = Vec::new();
        let mut last = None;
        loop {
            match step {
                FetchStep::Done(outcome) => {
                    return Ok(ClassicScriptFetch {
                        outcome,
                        url_list,
                        response: last,
                    })
                }
                FetchStep::Request(pending) => {
                    let request = HopRequest::from(pending.request());
                    url_list.push(request.url.clone());
                    let response = self.fetch_hop(&request)?;
                    step = pending.process_response(&response.response_info());
                    last = Some(response);
                }
            }
        }
    }
}
