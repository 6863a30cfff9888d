//! SCORM packages (decision 026): a course whose teaching is a package
//! made in an authoring tool rather than lessons written here. What a
//! package may hold and how large it may be ([`package`]), what its
//! `imsmanifest.xml` says to launch ([`manifest`]), and what the package's
//! runtime may commit for a student and when that completes the course
//! ([`runtime`]). Pure rules: the server reads the zip, asks these, and
//! stores the answers.

pub mod manifest;
pub mod package;
pub mod runtime;

use serde::{Deserialize, Serialize};
use ts_rs::TS;
use utoipa::ToSchema;

/// The SCORM edition a package is written for: its runtime object is
/// `API` (1.2) or `API_1484_11` (2004), with different element names.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS, ToSchema)]
#[ts(export)]
pub enum ScormVersion {
    #[serde(rename = "1.2")]
    V12,
    #[serde(rename = "2004")]
    V2004,
}

impl ScormVersion {
    /// As stored and sent to the browser: `1.2` or `2004`.
    pub fn as_str(self) -> &'static str {
        match self {
            ScormVersion::V12 => "1.2",
            ScormVersion::V2004 => "2004",
        }
    }

    pub fn parse(stored: &str) -> Option<ScormVersion> {
        match stored {
            "1.2" => Some(ScormVersion::V12),
            "2004" => Some(ScormVersion::V2004),
            _ => None,
        }
    }
}
