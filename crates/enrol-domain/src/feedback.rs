//! Feedback after the day (decision 034): what a student's answer may be,
//! which answers staff must see in the inbox, and the words the inbox and
//! the course page use for them.

use serde::Serialize;
use ts_rs::TS;
use utoipa::ToSchema;

/// The longest comment a student may leave, in characters.
pub const COMMENT_LIMIT: usize = 2000;

/// The inbox's kind for a rating that needs staff (`form_submission.kind`).
pub const INBOX_KIND: &str = "feedback";

/// The highest rating that still puts an item in the inbox: 3 of 5 or lower
/// means something went less than well, and someone should ask.
const INBOX_AT_MOST: u8 = 3;

/// A student's answer, as checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FeedbackAnswer {
    pub rating: u8,
    /// Trimmed; may be empty.
    pub comment: String,
    /// The college may publish the comment on the course's page.
    pub may_publish: bool,
}

/// Why an answer was refused, in the student's words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerRefused {
    Rating,
    CommentTooLong,
}

impl AnswerRefused {
    pub fn message(self) -> &'static str {
        match self {
            Self::Rating => "Choose a rating from 1 to 5.",
            Self::CommentTooLong => "Keep your comment to 2,000 characters or fewer.",
        }
    }
}

impl FeedbackAnswer {
    pub fn parse(rating: i64, comment: &str, may_publish: bool) -> Result<Self, AnswerRefused> {
        let rating = u8::try_from(rating).ok().filter(|r| (1..=5).contains(r)).ok_or(AnswerRefused::Rating)?;
        let comment = comment.trim();
        if comment.chars().count() > COMMENT_LIMIT {
            return Err(AnswerRefused::CommentTooLong);
        }
        Ok(Self { rating, comment: comment.to_owned(), may_publish })
    }

    /// Whether the answer puts an item in the back office's inbox.
    pub fn needs_staff(&self) -> bool {
        self.rating <= INBOX_AT_MOST
    }

    /// The inbox item's message: the rating, the date and tutor it is
    /// about, and what the student wrote.
    pub fn inbox_message(&self, date: &str, tutor: Option<&str>) -> String {
        let tutor = tutor.map(|name| format!(" with {name}")).unwrap_or_default();
        let comment = if self.comment.is_empty() { "No comment." } else { &self.comment };
        format!("Rated {} of 5 after training on {date}{tutor}.\n\n{comment}", self.rating)
    }
}

/// The published reviews of a course, as its page shows them and its
/// structured data counts them: only comments students agreed to publish
/// and staff published.
#[derive(Debug, Clone, Default, PartialEq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseReviews {
    /// The mean rating of the published reviews, to one decimal place;
    /// `None` when there are none.
    pub average: Option<f64>,
    pub count: u32,
    /// Newest first.
    pub reviews: Vec<CourseReview>,
}

/// One published review.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, TS, ToSchema)]
#[serde(rename_all = "camelCase")]
#[ts(export)]
pub struct CourseReview {
    pub rating: u8,
    pub comment: String,
    /// The student's first name, as reviews are signed.
    pub author: String,
    /// `YYYY-MM-DD`, the day of training.
    pub date: String,
}

impl CourseReviews {
    /// The reviews `published`, newest first, with their count and mean.
    pub fn of(reviews: Vec<CourseReview>) -> Self {
        let count = u32::try_from(reviews.len()).unwrap_or(u32::MAX);
        Self { average: average_rating(reviews.iter().map(|r| r.rating)), count, reviews }
    }
}

/// The mean of `ratings` to one decimal place; `None` when there are none.
pub fn average_rating(ratings: impl Iterator<Item = u8>) -> Option<f64> {
    let (count, total) = ratings.fold((0u32, 0u32), |(count, total), rating| (count + 1, total + u32::from(rating)));
    (count > 0).then(|| (f64::from(total) * 10.0 / f64::from(count)).round() / 10.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rating_is_a_whole_number_from_one_to_five() {
        for rating in 1..=5 {
            assert_eq!(FeedbackAnswer::parse(rating, "", false).map(|a| a.rating), Ok(u8::try_from(rating).unwrap()));
        }
        for rating in [-1, 0, 6, 256, i64::MAX] {
            assert_eq!(FeedbackAnswer::parse(rating, "", false), Err(AnswerRefused::Rating), "{rating}");
        }
    }

    #[test]
    fn a_comment_is_trimmed_and_kept_to_its_limit() {
        assert_eq!(FeedbackAnswer::parse(4, "  Lovely day \n", true).unwrap().comment, "Lovely day");
        assert!(FeedbackAnswer::parse(4, &"é".repeat(COMMENT_LIMIT), false).is_ok());
        assert_eq!(FeedbackAnswer::parse(4, &"a".repeat(COMMENT_LIMIT + 1), false), Err(AnswerRefused::CommentTooLong));
    }

    #[test]
    fn three_or_lower_reaches_the_inbox_four_or_five_do_not() {
        let reaches = |rating| FeedbackAnswer::parse(rating, "", false).unwrap().needs_staff();
        assert_eq!((1..=5).map(reaches).collect::<Vec<_>>(), [true, true, true, false, false]);
    }

    #[test]
    fn the_inbox_message_names_the_rating_date_and_tutor() {
        let answer = FeedbackAnswer::parse(2, "Too rushed", false).unwrap();
        assert_eq!(
            answer.inbox_message("2026-11-28", Some("Ana Tutor")),
            "Rated 2 of 5 after training on 2026-11-28 with Ana Tutor.\n\nToo rushed"
        );
        let silent = FeedbackAnswer::parse(3, "", false).unwrap();
        assert_eq!(silent.inbox_message("2026-11-28", None), "Rated 3 of 5 after training on 2026-11-28.\n\nNo comment.");
    }

    #[test]
    fn reviews_count_and_average_only_what_is_given() {
        assert_eq!(CourseReviews::of(Vec::new()), CourseReviews { average: None, count: 0, reviews: Vec::new() });
        let review = |rating| CourseReview { rating, comment: "Good".to_owned(), author: "Sam".to_owned(), date: "2026-11-28".to_owned() };
        let reviews = CourseReviews::of(vec![review(5), review(4), review(4)]);
        assert_eq!((reviews.average, reviews.count), (Some(4.3), 3));
    }
}
