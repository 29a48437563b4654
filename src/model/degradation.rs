//! The degradation contract of source 000's product page.
//!
//! `GET /products/{id}?recommendations=true` answers 200 with the product even when the
//! optional recommendation card cannot be computed; the card then says
//! `recommendation_status = "unavailable"` with an empty list. A client (and the analytics
//! behind it) must be able to tell that apart from a computed empty list — otherwise an
//! outage reads as "users lost interest". A hot-list or cached fallback says `stale` and
//! carries its age. Prices and order state are never taken from a fallback.

use crate::scenario::Fallback;
use serde::{Deserialize, Serialize};

/// How the recommendation card was produced.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecommendationStatus {
    /// Computed for this user (the list may legitimately be empty).
    Ok,
    /// Not computed: the dependency failed and nothing stood in.
    Unavailable,
    /// A stale or hot-list result stood in; see `age_ms`.
    Stale,
}

/// The optional part of the product page response.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecommendationCard {
    /// How the card was produced.
    pub recommendation_status: RecommendationStatus,
    /// Recommended item ids (may be empty in every status).
    pub recommendations: Vec<String>,
    /// Age of the data for a stale result (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub age_ms: Option<f64>,
}

/// What the recommendation call produced.
#[derive(Clone, Debug, PartialEq)]
pub enum CardSource {
    /// The dependency answered with this (possibly empty) list.
    Computed(Vec<String>),
    /// The dependency failed; this fallback answers instead, with these items for a stale
    /// or hot list.
    Fallback(Fallback, Vec<String>),
}

impl RecommendationCard {
    /// Builds the card a client receives.
    pub fn from_source(source: CardSource) -> Self {
        match source {
            CardSource::Computed(items) => RecommendationCard {
                recommendation_status: RecommendationStatus::Ok,
                recommendations: items,
                age_ms: None,
            },
            CardSource::Fallback(Fallback::Unavailable {}, _) => RecommendationCard {
                recommendation_status: RecommendationStatus::Unavailable,
                recommendations: Vec::new(),
                age_ms: None,
            },
            CardSource::Fallback(Fallback::Stale { age_ms }, items) => RecommendationCard {
                recommendation_status: RecommendationStatus::Stale,
                recommendations: items,
                age_ms: Some(age_ms),
            },
        }
    }

    /// Whether the list reflects this user (a computed result, empty or not).
    pub fn is_computed(&self) -> bool {
        self.recommendation_status == RecommendationStatus::Ok
    }

    /// Whether the response is degraded (to be counted apart from full successes).
    pub fn is_degraded(&self) -> bool {
        !self.is_computed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_empty_is_distinct_from_unavailable() {
        let empty = RecommendationCard::from_source(CardSource::Computed(Vec::new()));
        let unavailable =
            RecommendationCard::from_source(CardSource::Fallback(Fallback::Unavailable {}, vec!["x".into()]));
        assert!(empty.recommendations.is_empty() && unavailable.recommendations.is_empty());
        assert_ne!(empty, unavailable);
        assert!(empty.is_computed() && !empty.is_degraded());
        assert!(unavailable.is_degraded());
        let a = serde_json::to_string(&empty).unwrap();
        let b = serde_json::to_string(&unavailable).unwrap();
        assert_eq!(a, r#"{"recommendation_status":"ok","recommendations":[]}"#);
        assert_eq!(b, r#"{"recommendation_status":"unavailable","recommendations":[]}"#);
    }

    #[test]
    fn stale_results_carry_their_age() {
        let hot = RecommendationCard::from_source(CardSource::Fallback(
            Fallback::Stale { age_ms: 60_000.0 },
            vec!["top-1".into(), "top-2".into()],
        ));
        assert_eq!(hot.recommendation_status, RecommendationStatus::Stale);
        assert_eq!(hot.age_ms, Some(60_000.0));
        assert!(hot.is_degraded());
        assert_eq!(
            serde_json::to_string(&hot).unwrap(),
            r#"{"recommendation_status":"stale","recommendations":["top-1","top-2"],"age_ms":60000.0}"#
        );
    }
}
