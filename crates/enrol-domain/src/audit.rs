//! The audit log in words (decision 017): one sentence for a row, made
//! from its action code and the `before` and `after` its change recorded,
//! shown beside the code in the back office ("Booking moved to Saturday 5
//! December 2026", "Refund of £50.00: changed her mind", "Session seats
//! changed from 8 to 10"). A value the row lacks is left out of the
//! sentence; an action this file does not know reads as its code.

use chrono::NaiveDate;
use serde_json::Value;

use crate::london::long_date;
use crate::money::Money;

/// What the row with `action`, `before` and `after` did, in a sentence.
pub fn audit_sentence(action: &str, before: Option<&Value>, after: Option<&Value>) -> String {
    let was = |key: &str| before.and_then(|value| value.get(key)).filter(|value| !value.is_null());
    let now = |key: &str| after.and_then(|value| value.get(key)).filter(|value| !value.is_null());
    match action {
        "order.move" => match now("date").and_then(day) {
            Some(to) => format!("Booking moved to {}{}", long_date(to), was("date").and_then(day).map(from_day).unwrap_or_default()),
            None => "Booking moved to another date".to_owned(),
        },
        "order.cancel" => {
            let refunded: i64 = now("refunds").and_then(Value::as_array).into_iter().flatten().filter_map(|r| pence(r.get("amount"))).sum();
            if refunded > 0 {
                format!("Booking cancelled, {} refunded", Money::from_pence(refunded))
            } else {
                "Booking cancelled".to_owned()
            }
        }
        "order.refund" | "online_order.refund" => match pence(now("amount")) {
            Some(amount) => {
                format!("Refund of {}{}", Money::from_pence(amount), text(now("reason")).map(|r| format!(": {r}")).unwrap_or_default())
            }
            None => "Refund".to_owned(),
        },
        "order.refund_made" => format!("Refund paid back by hand{}", text(now("reference")).map(|r| format!(" ({r})")).unwrap_or_default()),
        "order.payment" => match pence(now("amount")) {
            Some(amount) => {
                format!("Payment of {} taken{}", Money::from_pence(amount), text(now("method")).map(method).unwrap_or_default())
            }
            None => "Payment taken".to_owned(),
        },
        "order.balance_due" => match now("balanceDueOn").and_then(day) {
            Some(to) => format!(
                "Balance due date changed to {}{}",
                long_date(to),
                was("balanceDueOn").and_then(day).map(from_day).unwrap_or_default()
            ),
            None => "Balance due date changed".to_owned(),
        },
        "order.resend_mail" => match text(now("subject")) {
            Some(subject) => format!("Mail “{subject}” sent again{}", text(now("to")).map(|to| format!(" to {to}")).unwrap_or_default()),
            None => "Mail sent again".to_owned(),
        },
        "plan.pause" => "Payment plan paused".to_owned(),
        "plan.resume" => "Payment plan resumed".to_owned(),
        "plan.cancel" => "Payment plan cancelled".to_owned(),
        "plan.move" => match (now("instalment").and_then(Value::as_u64), now("dueOn").and_then(day)) {
            (Some(number), Some(to)) => {
                let was = was("dueOn").and_then(|days| days.get(usize::try_from(number).ok()?.checked_sub(1)?)).and_then(day);
                format!("Instalment {number} moved to {}{}", long_date(to), was.map(from_day).unwrap_or_default())
            }
            _ => "Instalment moved to another day".to_owned(),
        },
        "plans.settings" => "Payment plan settings changed".to_owned(),
        "session.create" => {
            let seats = now("seats").and_then(Value::as_i64).map(|s| format!(", {s} seats")).unwrap_or_default();
            match now("date").and_then(day) {
                Some(date) => format!("Session created for {}{seats}", long_date(date)),
                None => format!("Session created{seats}"),
            }
        }
        "session.update" => session_changes(before, after),
        "session.cancel" => match now("studentsTold").and_then(Value::as_i64) {
            Some(1) => "Session cancelled, 1 student told".to_owned(),
            Some(students) => format!("Session cancelled, {students} students told"),
            None => "Session cancelled".to_owned(),
        },
        "session.attendance" => match now("attended").and_then(Value::as_bool) {
            Some(true) => "Marked as attended".to_owned(),
            Some(false) => "Marked as not attended".to_owned(),
            None => "Attendance cleared".to_owned(),
        },
        "certificate.issue" => match text(now("number")) {
            Some(number) => {
                format!("Certificate {number} issued{}", text(now("holder")).map(|name| format!(" to {name}")).unwrap_or_default())
            }
            None => "Certificate issued".to_owned(),
        },
        "access.grant" => match (text(now("course")), now("lastDay").and_then(day)) {
            (Some(course), Some(last)) => format!("{course} given until {}", long_date(last)),
            _ => "Course given".to_owned(),
        },
        "access.extend" => match now("lastDay").and_then(day) {
            Some(last) => {
                format!("Access now ends on {}{}", long_date(last), was("lastDay").and_then(day).map(from_day).unwrap_or_default())
            }
            None => "Access's last day changed".to_owned(),
        },
        "access.revoke" => format!("Access withdrawn{}", text(now("reason")).map(|r| format!(": {r}")).unwrap_or_default()),
        "access.restore" => "Access given back".to_owned(),
        "code.create" => "Discount code created".to_owned(),
        "code.edit" => "Discount code changed".to_owned(),
        "code.expire" => "Discount code expired".to_owned(),
        "upsell.edit" => "Offer changed".to_owned(),
        "enquiry.update" => match text(now("status")) {
            Some(status) => format!("Enquiry marked {}", status.replace('_', " ")),
            None => "Enquiry changed".to_owned(),
        },
        "enquiry.note" => "Note added".to_owned(),
        "enquiry.reply" => match text(now("to")) {
            Some(to) => format!("Reply mailed to {to}"),
            None => "Reply mailed".to_owned(),
        },
        "content.create" => "Created as a draft".to_owned(),
        "content.publish" => "Published".to_owned(),
        "content.revert" => "Earlier version put back".to_owned(),
        "content.discard" => "Draft discarded".to_owned(),
        "content.withdraw" => "Taken off the site".to_owned(),
        "media.upload" => "Image uploaded".to_owned(),
        "media.alt" => "Image description changed".to_owned(),
        "staff.add" => match text(now("role")) {
            Some(role) => format!("Added to the staff as {role}"),
            None => "Added to the staff".to_owned(),
        },
        "staff.set_up" => "Account set up".to_owned(),
        "staff.recovery_codes" => "New recovery codes made, the old ones void".to_owned(),
        "staff.disable" => "Account disabled".to_owned(),
        other => other.to_owned(),
    }
}

/// "Session seats changed from 8 to 10", with each other detail that
/// changed after it, or that it was saved as it was.
fn session_changes(before: Option<&Value>, after: Option<&Value>) -> String {
    let field = |value: Option<&Value>, key: &str| value.and_then(|v| v.get(key)).cloned().unwrap_or(Value::Null);
    // The row before is a session as listed (`startTime`), the row after
    // the details saved (`startAt`, a whole date and time).
    let time = |value: Option<&Value>, listed: &str, saved: &str| {
        text(value.and_then(|v| v.get(listed)))
            .or_else(|| text(value.and_then(|v| v.get(saved))).and_then(|at| at.get(11..16)))
            .map(str::to_owned)
    };
    let mut changes = Vec::new();
    let (seats_was, seats_now) = (field(before, "seats"), field(after, "seats"));
    if let (Some(was), Some(now)) = (seats_was.as_i64(), seats_now.as_i64())
        && was != now
    {
        changes.push(format!("seats changed from {was} to {now}"));
    }
    if let (Some(was), Some(now)) = (day(&field(before, "date")), day(&field(after, "date")))
        && was != now
    {
        changes.push(format!("date changed from {} to {}", long_date(was), long_date(now)));
    }
    let (start_was, start_now) = (time(before, "startTime", "startAt"), time(after, "startTime", "startAt"));
    let (end_was, end_now) = (time(before, "endTime", "endAt"), time(after, "endTime", "endAt"));
    if let (Some(start_was), Some(end_was), Some(start_now), Some(end_now)) = (start_was, end_was, start_now, end_now)
        && (&start_was, &end_was) != (&start_now, &end_now)
    {
        changes.push(format!("times changed from {start_was}–{end_was} to {start_now}–{end_now}"));
    }
    if let (Some(was), Some(now)) = (pence(before.and_then(|v| v.get("price"))), pence(after.and_then(|v| v.get("price"))))
        && was != now
    {
        changes.push(format!("price changed from {} to {}", Money::from_pence(was), Money::from_pence(now)));
    }
    let (venue_was, venue_now) = (field(before, "venue"), field(after, "venue"));
    if let (Some(was), Some(now)) = (venue_was.as_str(), venue_now.as_str())
        && was != now
    {
        changes.push(if now.is_empty() { "venue removed".to_owned() } else { format!("venue changed to {now}") });
    }
    // How it is taught is `type` when listed, `sessionType` when saved.
    let kind =
        |value: Option<&Value>| Some(field(value, "type")).filter(|kind| !kind.is_null()).unwrap_or_else(|| field(value, "sessionType"));
    if before.is_some() && after.is_some() && kind(before) != kind(after) {
        changes.push("way it is taught changed".to_owned());
    }
    let (link_was, link_now) = (field(before, "joiningLink"), field(after, "joiningLink"));
    if before.is_some() && after.is_some() && link_was != link_now && !(blank(&link_was) && blank(&link_now)) {
        changes.push("joining link changed".to_owned());
    }
    if before.is_some() && after.is_some() && field(before, "tutorId") != field(after, "tutorId") {
        changes.push("tutor changed".to_owned());
    }
    match changes.split_first() {
        Some((first, [])) => format!("Session {first}"),
        Some((first, rest)) => format!("Session {first}; {}", rest.join("; ")),
        None => "Session saved unchanged".to_owned(),
    }
}

fn blank(value: &Value) -> bool {
    value.as_str().is_none_or(str::is_empty)
}

fn day(value: &Value) -> Option<NaiveDate> {
    value.as_str().and_then(|text| NaiveDate::parse_from_str(text.get(..10)?, "%Y-%m-%d").ok())
}

fn from_day(day: NaiveDate) -> String {
    format!(" (was {})", long_date(day))
}

/// An amount as stored: whole pence.
fn pence(value: Option<&Value>) -> Option<i64> {
    value.and_then(Value::as_i64)
}

fn text(value: Option<&Value>) -> Option<&str> {
    value.and_then(Value::as_str).map(str::trim).filter(|text| !text.is_empty())
}

/// " by bank transfer", for an offline payment's method.
fn method(code: &str) -> String {
    match code {
        "bank_transfer" => " by bank transfer".to_owned(),
        "card_by_phone" => " by card over the phone".to_owned(),
        "cash" => " in cash".to_owned(),
        other => format!(" by {}", other.replace('_', " ")),
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn sentence(action: &str, before: Value, after: Value) -> String {
        audit_sentence(action, Some(&before), Some(&after))
    }

    #[test]
    fn a_booking_moved_says_its_new_date_and_its_old_one() {
        assert_eq!(
            sentence("order.move", json!({ "date": "2026-12-01", "sessionId": "a" }), json!({ "date": "2026-12-05", "sessionId": "b" })),
            "Booking moved to Saturday 5 December 2026 (was Tuesday 1 December 2026)"
        );
        assert_eq!(audit_sentence("order.move", None, None), "Booking moved to another date");
    }

    #[test]
    fn money_is_said_in_pounds_with_its_reason_or_method() {
        assert_eq!(
            sentence("order.refund", json!({ "paid": 25000 }), json!({ "amount": 5000, "reason": "Changed her mind" })),
            "Refund of £50.00: Changed her mind"
        );
        assert_eq!(sentence("order.refund", json!({}), json!({ "amount": 5050, "reason": " " })), "Refund of £50.50");
        assert_eq!(
            sentence("order.payment", json!({}), json!({ "amount": 115000, "method": "bank_transfer" })),
            "Payment of £1,150.00 taken by bank transfer"
        );
        assert_eq!(sentence("order.payment", json!({}), json!({ "amount": 2000, "method": "cash" })), "Payment of £20.00 taken in cash");
        assert_eq!(
            sentence(
                "order.cancel",
                json!({ "status": "deposit" }),
                json!({ "status": "cancelled", "refunds": [{ "amount": 10000 }, { "amount": 2500 }] })
            ),
            "Booking cancelled, £125.00 refunded"
        );
        assert_eq!(sentence("order.cancel", json!({}), json!({ "refunds": [] })), "Booking cancelled");
        assert_eq!(sentence("order.refund_made", json!({}), json!({ "reference": "BACS 1234" })), "Refund paid back by hand (BACS 1234)");
    }

    #[test]
    fn a_plan_s_changes_are_said_with_the_part_s_days() {
        assert_eq!(sentence("plan.pause", json!({ "status": "active" }), json!({ "status": "paused" })), "Payment plan paused");
        assert_eq!(
            sentence("plan.move", json!({ "dueOn": ["2026-12-29", "2027-01-29"] }), json!({ "instalment": 2, "dueOn": "2027-02-05" })),
            "Instalment 2 moved to Friday 5 February 2027 (was Friday 29 January 2027)"
        );
        assert_eq!(
            sentence("plan.move", json!({}), json!({ "instalment": 3, "dueOn": "2027-02-05" })),
            "Instalment 3 moved to Friday 5 February 2027"
        );
    }

    #[test]
    fn a_balance_due_date_and_a_mail_sent_again_are_said_in_full() {
        assert_eq!(
            sentence("order.balance_due", json!({ "balanceDueOn": "2026-11-21" }), json!({ "balanceDueOn": "2026-12-01" })),
            "Balance due date changed to Tuesday 1 December 2026 (was Saturday 21 November 2026)"
        );
        assert_eq!(
            sentence("order.resend_mail", Value::Null, json!({ "subject": "Your booking", "to": "amara@example.com" })),
            "Mail “Your booking” sent again to amara@example.com"
        );
    }

    #[test]
    fn access_changes_name_the_course_and_days() {
        assert_eq!(
            sentence("online_order.refund", json!({ "paid": 12400 }), json!({ "amount": 2500, "reason": "Add-on not wanted" })),
            "Refund of £25.00: Add-on not wanted"
        );
        assert_eq!(
            sentence("access.grant", Value::Null, json!({ "course": "Anatomy and Physiology", "lastDay": "2027-03-10" })),
            "Anatomy and Physiology given until Wednesday 10 March 2027"
        );
        assert_eq!(
            sentence("access.extend", json!({ "lastDay": "2027-03-10" }), json!({ "lastDay": "2027-06-30" })),
            "Access now ends on Wednesday 30 June 2027 (was Wednesday 10 March 2027)"
        );
        assert_eq!(sentence("access.revoke", json!({}), json!({ "reason": "Chargeback" })), "Access withdrawn: Chargeback");
        assert_eq!(sentence("access.restore", json!({}), json!({})), "Access given back");
    }

    fn listed_session() -> Value {
        json!({ "id": "s", "date": "2026-12-15", "startTime": "10:00", "endTime": "16:00", "type": "onsite", "price": 45000, "seats": 8,
            "venue": "Manchester", "joiningLink": null, "tutorId": "t1", "booked": 3 })
    }

    fn saved_session() -> Value {
        json!({ "date": "2026-12-15", "startAt": "2026-12-15T10:00:00", "endAt": "2026-12-15T16:00:00", "sessionType": "onsite",
            "price": 45000, "seats": 8, "venue": "Manchester", "joiningLink": null, "tutorId": "t1" })
    }

    #[test]
    fn a_session_change_names_what_changed() {
        let mut after = saved_session();
        after["seats"] = json!(10);
        assert_eq!(sentence("session.update", listed_session(), after.clone()), "Session seats changed from 8 to 10");
        after["price"] = json!(49950);
        after["startAt"] = json!("2026-12-15T09:30:00");
        after["date"] = json!("2026-12-16");
        assert_eq!(
            sentence("session.update", listed_session(), after),
            "Session seats changed from 8 to 10; date changed from Tuesday 15 December 2026 to Wednesday 16 December 2026; \
             times changed from 10:00–16:00 to 09:30–16:00; price changed from £450.00 to £499.50"
        );
        let mut tutor = saved_session();
        tutor["tutorId"] = json!("t2");
        tutor["sessionType"] = json!("onsite");
        tutor["joiningLink"] = json!("");
        assert_eq!(sentence("session.update", listed_session(), tutor), "Session tutor changed");
        assert_eq!(sentence("session.update", listed_session(), saved_session()), "Session saved unchanged");
    }

    #[test]
    fn other_actions_read_as_words_and_an_unknown_one_as_its_code() {
        assert_eq!(sentence("session.create", Value::Null, saved_session()), "Session created for Tuesday 15 December 2026, 8 seats");
        assert_eq!(sentence("session.cancel", json!({}), json!({ "studentsTold": 12 })), "Session cancelled, 12 students told");
        assert_eq!(sentence("session.attendance", json!({}), json!({ "attended": true })), "Marked as attended");
        assert_eq!(
            sentence("certificate.issue", Value::Null, json!({ "number": "EA-2026-K7Q2", "holder": "Amara Okafor" })),
            "Certificate EA-2026-K7Q2 issued to Amara Okafor"
        );
        assert_eq!(sentence("enquiry.update", json!({}), json!({ "status": "in_progress" })), "Enquiry marked in progress");
        assert_eq!(sentence("enquiry.reply", Value::Null, json!({ "to": "amelia@example.org" })), "Reply mailed to amelia@example.org");
        assert_eq!(sentence("staff.add", Value::Null, json!({ "role": "tutor" })), "Added to the staff as tutor");
        assert_eq!(audit_sentence("code.expire", None, None), "Discount code expired");
        assert_eq!(audit_sentence("order.something_new", None, None), "order.something_new");
    }
}
