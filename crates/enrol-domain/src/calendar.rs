//! Calendar files for booking confirmations (decision 015):
//! the "Add to calendar" download and the .ics attached to the confirmation
//! mail, in RFC 5545's iCalendar format. Times are London wall-clock times,
//! with the zone defined in the file itself, so every calendar app shows the
//! training at the hour the college keeps on either side of a clock change.

use chrono::{DateTime, NaiveDateTime, Utc};

/// A course's training as one calendar entry.
#[derive(Debug, Clone, Copy)]
pub struct TrainingEvent<'a> {
    /// Stable per registration, so a date change updates the same calendar
    /// entry: e.g. `registration-<id>@<host>`.
    pub uid: &'a str,
    /// Raised on every change of the same entry (a date change), so calendar
    /// apps replace it.
    pub sequence: u32,
    /// The course title.
    pub summary: &'a str,
    /// Plain text; newlines are kept.
    pub description: &'a str,
    /// The venue's address on site; the joining link for virtual training.
    pub location: Option<&'a str>,
    /// The joining link, or the booking's page.
    pub url: Option<&'a str>,
    /// London wall-clock time.
    pub starts: NaiveDateTime,
    /// London wall-clock time.
    pub ends: NaiveDateTime,
}

/// The zone's rules as `london::to_london` keeps them: BST from 01:00 GMT on
/// the last Sunday of March to 02:00 BST on the last Sunday of October. Each
/// DTSTART is a first change under its rule, in the time it changes from.
const LONDON: &[&str] = &[
    "BEGIN:VTIMEZONE",
    "TZID:Europe/London",
    "BEGIN:DAYLIGHT",
    "TZOFFSETFROM:+0000",
    "TZOFFSETTO:+0100",
    "TZNAME:BST",
    "DTSTART:19810329T010000",
    "RRULE:FREQ=YEARLY;BYMONTH=3;BYDAY=-1SU",
    "END:DAYLIGHT",
    "BEGIN:STANDARD",
    "TZOFFSETFROM:+0100",
    "TZOFFSETTO:+0000",
    "TZNAME:GMT",
    "DTSTART:19961027T020000",
    "RRULE:FREQ=YEARLY;BYMONTH=10;BYDAY=-1SU",
    "END:STANDARD",
    "END:VTIMEZONE",
];

/// A calendar file holding `events`, sent by the college as organiser.
/// `stamp` is when the file is made (DTSTAMP).
pub fn calendar(events: &[TrainingEvent<'_>], organiser_name: &str, organiser_email: &str, stamp: DateTime<Utc>) -> String {
    let mut lines: Vec<String> =
        ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Enrol//Booking confirmations//EN", "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
            .iter()
            .chain(LONDON)
            .map(|line| line.to_string())
            .collect();
    let organiser = format!("ORGANIZER;CN={}:mailto:{organiser_email}", param(organiser_name));
    let stamp = stamp.format("%Y%m%dT%H%M%SZ");
    for event in events {
        lines.extend([
            "BEGIN:VEVENT".to_owned(),
            format!("UID:{}", text(event.uid)),
            format!("SEQUENCE:{}", event.sequence),
            format!("DTSTAMP:{stamp}"),
            format!("DTSTART;TZID=Europe/London:{}", event.starts.format("%Y%m%dT%H%M%S")),
            format!("DTEND;TZID=Europe/London:{}", event.ends.format("%Y%m%dT%H%M%S")),
            format!("SUMMARY:{}", text(event.summary)),
            format!("DESCRIPTION:{}", text(event.description)),
        ]);
        lines.extend(event.location.map(|location| format!("LOCATION:{}", text(location))));
        // A URI, not text: its commas and semicolons are not escaped.
        lines.extend(event.url.map(|url| format!("URL:{url}")));
        lines.extend([organiser.clone(), "STATUS:CONFIRMED".to_owned(), "END:VEVENT".to_owned()]);
    }
    lines.push("END:VCALENDAR".to_owned());
    let mut file = String::new();
    for line in &lines {
        fold(line, &mut file);
    }
    file
}

/// A TEXT value (RFC 5545 §3.3.11). Carriage returns go, as a newline is written
/// `\n` whichever way it was typed; other control characters are not allowed.
fn text(value: &str) -> String {
    let mut escaped = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' | ';' | ',' => {
                escaped.push('\\');
                escaped.push(c);
            }
            '\n' => escaped.push_str("\\n"),
            '\t' => escaped.push(c),
            c if c.is_control() => {}
            c => escaped.push(c),
        }
    }
    escaped
}

/// A parameter value such as the organiser's CN, always quoted so that commas
/// and colons in a name are safe; quotes and newlines are written as RFC 6868 says.
fn param(value: &str) -> String {
    let mut quoted = String::from('"');
    for c in value.chars() {
        match c {
            '^' => quoted.push_str("^^"),
            '"' => quoted.push_str("^'"),
            '\n' => quoted.push_str("^n"),
            c if c.is_control() => {}
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

/// Appends a content line folded into lines of at most 75 octets (RFC 5545 §3.1),
/// each ending CRLF, the continuations starting with a space; a UTF-8
/// character is never split.
fn fold(line: &str, file: &mut String) {
    let mut rest = line;
    let mut room = 75;
    while rest.len() > room {
        let cut = (0..=room).rev().find(|&i| rest.is_char_boundary(i)).expect("a character is at most 4 octets");
        file.push_str(&rest[..cut]);
        file.push_str("\r\n ");
        rest = &rest[cut..];
        room = 74;
    }
    file.push_str(rest);
    file.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::{NaiveDate, TimeZone};

    fn at(y: i32, m: u32, d: u32, h: u32, min: u32) -> NaiveDateTime {
        NaiveDate::from_ymd_opt(y, m, d).unwrap().and_hms_opt(h, min, 0).unwrap()
    }

    fn event<'a>(summary: &'a str, starts: NaiveDateTime, ends: NaiveDateTime) -> TrainingEvent<'a> {
        TrainingEvent {
            uid: "registration-42@enrol.example",
            sequence: 3,
            summary,
            description: "Bring photo ID.",
            location: Some("1 High Street, Leeds"),
            url: Some("https://enrol.example/account/bookings/42?a=1,b=2"),
            starts,
            ends,
        }
    }

    fn file(events: &[TrainingEvent<'_>]) -> String {
        calendar(events, "Northfield College", "bookings@enrol.example", Utc.with_ymd_and_hms(2027, 2, 1, 12, 0, 5).unwrap())
    }

    /// Undoes the folding: a CRLF followed by a space goes (RFC 5545 §3.1).
    fn unfold(file: &str) -> String {
        file.replace("\r\n ", "")
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(text(r"Level 3, part 1; C:\temp"), r"Level 3\, part 1\; C:\\temp");
        assert_eq!(text("Day one\nDay two\r\nDay three"), r"Day one\nDay two\nDay three");
        assert_eq!(text("Tab\tkept, bell\u{7} dropped"), "Tab\tkept\\, bell dropped");
    }

    #[test]
    fn the_organiser_name_is_a_quoted_parameter() {
        assert_eq!(param("Northfield College, Leeds: \"North\""), "\"Northfield College, Leeds: ^'North^'\"");
        let file = calendar(
            &[event("First Aid", at(2027, 6, 1, 9, 0), at(2027, 6, 1, 17, 0))],
            "A, B",
            "x@y.example",
            Utc.with_ymd_and_hms(2027, 2, 1, 12, 0, 5).unwrap(),
        );
        assert!(unfold(&file).contains("\r\nORGANIZER;CN=\"A, B\":mailto:x@y.example\r\n"));
    }

    #[test]
    fn long_lines_fold_at_75_octets_between_characters() {
        // "é" is two octets: the first one's would be octets 75 and 76.
        let summary = format!("{}{}", "a".repeat(66), "é".repeat(40));
        let mut folded = String::new();
        fold(&format!("SUMMARY:{summary}"), &mut folded);
        let lines: Vec<&str> = folded.split_terminator("\r\n").collect();
        assert!(lines.len() > 1);
        assert_eq!(lines[0].len(), 74, "the fold comes before the character that would cross octet 75");
        assert!(lines.iter().all(|line| line.len() <= 75));
        assert!(lines[1..].iter().all(|line| line.starts_with(' ') && !line.starts_with("  ")));
        assert_eq!(unfold(&folded), format!("SUMMARY:{summary}\r\n"));
    }

    #[test]
    fn every_line_ends_crlf_and_fits() {
        let description = "Day one: theory, 09:30–16:30.\nDay two: practice; bring boots.\n".repeat(5);
        let mut long =
            event("Working at Height — Level 3 Award, with the practical assessment; one day", at(2027, 6, 1, 9, 0), at(2027, 6, 1, 17, 0));
        long.description = &description;
        let file = file(&[long]);
        assert!(file.ends_with("END:VCALENDAR\r\n"));
        assert_eq!(file.matches('\n').count(), file.matches("\r\n").count());
        assert_eq!(file.matches('\r').count(), file.matches("\r\n").count());
        assert!(file.split_terminator("\r\n").all(|line| line.len() <= 75));
        let unfolded = unfold(&file);
        assert!(unfolded.contains("\r\nSUMMARY:Working at Height — Level 3 Award\\, with the practical assessment\\; one day\r\n"));
        assert!(unfolded.contains(&format!("\r\nDESCRIPTION:{}\r\n", text(&description))));
    }

    #[test]
    fn the_calendar_has_its_header_and_one_london_zone() {
        let events = [event("A", at(2027, 6, 1, 9, 0), at(2027, 6, 1, 17, 0)), event("B", at(2027, 6, 2, 9, 0), at(2027, 6, 2, 17, 0))];
        let file = file(&events);
        assert!(file.starts_with(
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Enrol//Booking confirmations//EN\r\nCALSCALE:GREGORIAN\r\nMETHOD:PUBLISH\r\n"
        ));
        assert_eq!(file.matches("BEGIN:VTIMEZONE\r\n").count(), 1);
        assert_eq!(file.matches("BEGIN:VEVENT\r\n").count(), 2);
        assert_eq!(file.matches("STATUS:CONFIRMED\r\n").count(), 2);
        assert!(file.contains("\r\nDTSTAMP:20270201T120005Z\r\n"));
        assert!(file.contains("\r\nLOCATION:1 High Street\\, Leeds\r\n"));
        assert!(file.contains("\r\nURL:https://enrol.example/account/bookings/42?a=1,b=2\r\n"));
    }

    #[test]
    fn uid_and_sequence_are_carried() {
        let file = file(&[event("First Aid", at(2027, 6, 1, 9, 0), at(2027, 6, 1, 17, 0))]);
        assert!(file.contains("\r\nUID:registration-42@enrol.example\r\nSEQUENCE:3\r\n"));
    }

    #[test]
    fn summer_and_winter_keep_their_wall_clock_times() {
        let file = file(&[
            event("Summer", at(2027, 7, 14, 9, 30), at(2027, 7, 14, 16, 30)),
            event("Winter", at(2027, 12, 8, 9, 30), at(2027, 12, 8, 16, 30)),
        ]);
        assert!(file.contains("\r\nDTSTART;TZID=Europe/London:20270714T093000\r\nDTEND;TZID=Europe/London:20270714T163000\r\n"));
        assert!(file.contains("\r\nDTSTART;TZID=Europe/London:20271208T093000\r\nDTEND;TZID=Europe/London:20271208T163000\r\n"));
    }

    #[test]
    fn an_event_without_a_place_or_link_leaves_them_out() {
        let bare = TrainingEvent { location: None, url: None, ..event("First Aid", at(2027, 6, 1, 9, 0), at(2027, 6, 1, 17, 0)) };
        let file = file(&[bare]);
        assert!(!file.contains("LOCATION") && !file.contains("URL:"));
    }
}
