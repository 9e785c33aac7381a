//! Request parameters: the query string of a GET, or a flat JSON object posted as the body
//! (for positions too long for a URL). Both become one map of names to text, checked against
//! the names the endpoint takes, so a misspelt parameter is an error, not silently ignored.

use crate::error::ApiError;
use axum::body::Body;
use axum::extract::Request;
use axum::http::{Method, StatusCode};
use std::collections::BTreeMap;
use std::time::Duration;
use xo_core::budget::Budget;

/// An endpoint's parameters by name.
#[derive(Debug, Default)]
pub struct Params {
    values: BTreeMap<String, String>,
    endpoint: &'static str,
}

/// The budget parameters every computing endpoint takes.
pub const BUDGET_NAMES: [&str; 3] = ["timeout", "max_nodes", "memory_mib"];

impl Params {
    /// Reads the parameters of `request` for `endpoint`, which takes the parameters `names` (and
    /// the budget's). Bodies beyond `max_body` bytes get 413.
    pub async fn read(
        request: Request,
        endpoint: &'static str,
        names: &[&str],
        max_body: usize,
    ) -> Result<Params, ApiError> {
        let (parts, body) = request.into_parts();
        let pairs = if parts.method == Method::POST {
            // One place for the parameters: a query string beside the body would be ignored.
            if parts.uri.query().is_some_and(|q| !q.is_empty()) {
                return Err(ApiError::bad_request(format!(
                    "a POST to {endpoint} takes its parameters in the JSON body, not in the query \
                     string"
                )));
            }
            from_body(body, max_body).await?
        } else {
            let query = parts.uri.query().unwrap_or("");
            serde_urlencoded::from_str::<Vec<(String, String)>>(query).map_err(|e| {
                ApiError::bad_request(format!("the query string cannot be read: {e}"))
            })?
        };
        let mut values = BTreeMap::new();
        for (name, value) in pairs {
            if !names.contains(&name.as_str()) && !BUDGET_NAMES.contains(&name.as_str()) {
                let mut known: Vec<&str> = names.to_vec();
                known.extend(BUDGET_NAMES);
                return Err(ApiError::bad_request(format!(
                    "{endpoint} has no parameter '{name}' (it takes: {})",
                    known.join(", ")
                )));
            }
            if values.insert(name.clone(), value).is_some() {
                return Err(ApiError::bad_request(format!("parameter '{name}' is given twice")));
            }
        }
        Ok(Params { values, endpoint })
    }

    /// Every parameter but the budget's (which [`Params::budget`] reads against the server's
    /// limits), as name and text.
    pub fn pairs(&self) -> Vec<(String, String)> {
        self.values
            .iter()
            .filter(|(name, _)| !BUDGET_NAMES.contains(&name.as_str()))
            .map(|(n, v)| (n.clone(), v.clone()))
            .collect()
    }

    /// The text of parameter `name`, if given.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// The text of parameter `name`, which must be given.
    pub fn required(&self, name: &str) -> Result<&str, ApiError> {
        self.get(name).ok_or_else(|| {
            ApiError::bad_request(format!("missing parameter '{name}' of {}", self.endpoint))
        })
    }

    /// A whole-number parameter.
    pub fn number(&self, name: &str) -> Result<Option<u64>, ApiError> {
        self.get(name)
            .map(|text| {
                text.trim().parse::<u64>().map_err(|_| {
                    ApiError::bad_request(format!(
                        "parameter '{name}' must be a whole number, not '{text}'"
                    ))
                })
            })
            .transpose()
    }

    /// The request's budget: what it asks for, each no more than `most` (the server's).
    pub fn budget(&self, most: &Budget) -> Result<Budget, ApiError> {
        let mut budget = *most;
        let above = |name: &str, asked: String, limit: String, flag: &str| {
            ApiError::bad_request(format!(
                "{name}={asked} is above this server's limit of {limit} (xo serve {flag})"
            ))
        };
        if let Some(text) = self.get("timeout") {
            let secs: f64 =
                text.trim().parse().ok().filter(|s: &f64| s.is_finite() && *s > 0.0).ok_or_else(
                    || {
                        ApiError::bad_request(format!(
                            "timeout must be a positive number of seconds, not '{text}'"
                        ))
                    },
                )?;
            if secs > most.timeout.as_secs_f64() {
                let limit = format!("{} s", most.timeout.as_secs_f64());
                return Err(above("timeout", text.to_string(), limit, "--timeout"));
            }
            budget.timeout = Duration::from_secs_f64(secs);
        }
        if let Some(nodes) = self.number("max_nodes")? {
            if nodes == 0 {
                return Err(ApiError::bad_request(
                    "max_nodes must be at least 1 (as timeout must be more than 0)",
                ));
            }
            if nodes > most.max_nodes {
                let limit = most.max_nodes.to_string();
                return Err(above("max_nodes", nodes.to_string(), limit, "--max-nodes"));
            }
            budget.max_nodes = nodes;
        }
        if let Some(mib) = self.number("memory_mib")? {
            if mib == 0 {
                return Err(ApiError::bad_request("memory_mib must be at least 1"));
            }
            if mib.saturating_mul(1 << 20) > most.memory_bytes {
                let limit = format!("{} MiB", most.memory_bytes >> 20);
                return Err(above("memory_mib", mib.to_string(), limit, "--memory-mib"));
            }
            budget.memory_bytes = mib << 20;
        }
        Ok(budget)
    }
}

/// The pairs of a posted JSON object whose values are text, numbers or booleans.
async fn from_body(body: Body, max_body: usize) -> Result<Vec<(String, String)>, ApiError> {
    let bytes = axum::body::to_bytes(body, max_body).await.map_err(|_| {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {max_body} bytes"),
        )
    })?;
    if bytes.is_empty() {
        return Ok(Vec::new());
    }
    // Read as pairs, in order, so that a key given twice is refused (a map keeps the last).
    let Pairs(object) = serde_json::from_slice(&bytes)
        .map_err(|e| ApiError::bad_request(format!("the body must be a JSON object: {e}")))?;
    object
        .into_iter()
        .map(|(name, value)| {
            let text = match value {
                serde_json::Value::String(s) => s,
                serde_json::Value::Number(n) => n.to_string(),
                serde_json::Value::Bool(b) => b.to_string(),
                _ => {
                    return Err(ApiError::bad_request(format!(
                        "parameter '{name}' must be text, a number or true/false"
                    )))
                }
            };
            Ok((name, text))
        })
        .collect()
}

/// A JSON object's members in order, duplicates kept.
struct Pairs(Vec<(String, serde_json::Value)>);

impl<'de> serde::Deserialize<'de> for Pairs {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Pairs;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a JSON object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<Pairs, A::Error> {
                let mut pairs = Vec::new();
                while let Some(pair) = map.next_entry()? {
                    pairs.push(pair);
                }
                Ok(Pairs(pairs))
            }
        }
        deserializer.deserialize_map(Visit)
    }
}
