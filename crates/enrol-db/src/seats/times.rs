//! When and how booked sessions run, for calendar invites and joining
//! instructions (decision 015), read on their own here and inside a
//! caller's transaction by [`crate::seats::SeatSteps::session_times`].

use anyhow::Context as _;
use chrono::NaiveDateTime;

use enrol_domain::booking::SessionTimes;
use enrol_domain::page::SessionType;

use crate::seats::SeatSteps;
use crate::{Db, on_pool};

#[derive(sqlx::FromRow)]
pub(crate) struct Row {
    id: String,
    start_at: NaiveDateTime,
    end_at: NaiveDateTime,
    #[sqlx(rename = "type")]
    session_type: String,
    joining_link: Option<String>,
}

impl Row {
    pub(crate) fn into_times(self) -> Option<SessionTimes> {
        Some(SessionTimes {
            session_type: SessionType::parse(&self.session_type)?,
            session_id: self.id,
            starts: self.start_at,
            ends: self.end_at,
            joining_link: self.joining_link,
        })
    }
}

impl Db {
    /// The times of `sessions`.
    pub async fn session_times(&self, sessions: &[String]) -> anyhow::Result<Vec<SessionTimes>> {
        on_pool!(self, pool => {
            let mut conn = pool.acquire().await?;
            conn.session_times(sessions).await
        })
        .context("Failed to read the sessions' times")
    }
}
