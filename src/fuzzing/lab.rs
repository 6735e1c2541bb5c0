//! Fuzz target for the lab's HTTP requests (`tools/lab/api.rs`): a request target, a path with
//! its query string, as the server receives it from any client.
//!
//! Every request is answered: a status the API documents (200, 400, 404, 503 when the time
//! limit ends the work), and for an `/api/` path a JSON body; a refusal (400) names what was
//! wrong in an `error` field. The work of each request is bounded by a short time limit, as
//! the server bounds it, so a costly query ends with 503 rather than hanging the fuzzer.

use std::time::Duration;

use super::common::text;
use crate::lab::{self, api};

/// The time limit of one fuzzed request.
const TIME_LIMIT: Duration = Duration::from_millis(200);

/// Reads the input as a request target (`/api/trace?depth=3&...`); an input that does not
/// start with `/` is taken as the query string of `/api/trace` (the first byte choosing the
/// path among the API's), so that the fuzzer spends its time on the parameters.
pub fn request(data: &[u8]) {
    let text = text(data);
    let target = if text.starts_with('/') {
        text.into_owned()
    } else {
        let paths = ["/api/trace", "/api/ebf", "/api/position"];
        let path = paths[data.first().map_or(0, |&b| usize::from(b) % paths.len())];
        let query = text.get(1..).unwrap_or("");
        format!("{path}?{query}")
    };
    if target.len() > api::MAX_QUERY_BYTES {
        return;
    }
    let (budget, done) = lab::budget(TIME_LIMIT);
    let reply = api::answer(&target, &budget);
    drop(done);
    assert!(
        [200, 400, 404, 503].contains(&reply.status),
        "{target}: status {}",
        reply.status
    );
    let path = target.split_once('?').map_or(target.as_str(), |(p, _)| p);
    if path.starts_with("/api/") || reply.status != 200 {
        let body: serde_json::Value = match serde_json::from_str(&reply.body) {
            Ok(body) => body,
            Err(error) => panic!("{target}: the body is not JSON ({error})"),
        };
        if reply.status != 200 {
            let message = body["error"].as_str().unwrap_or("");
            assert!(!message.is_empty(), "{target}: a refusal without a word");
        }
    } else {
        assert!(reply.body.contains("<html"), "{target}: no page");
    }
}
