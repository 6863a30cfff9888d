//! A row's place in a list read a page at a time (issue 31): its time and
//! id, the order the list is read in. A page starts after the last row's
//! place, read from an index there, however deep the page; the address
//! carries the place as a token (`2027-03-01T09:30:00_<id>`).

use chrono::{DateTime, NaiveDateTime, Utc};

/// A row's place: its time, then its id for rows of the same time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListPlace<T> {
    pub at: T,
    pub id: String,
}

/// A session's place in the sessions list: its start (a UK wall-clock time).
pub type SessionPlace = ListPlace<NaiveDateTime>;
/// An order's place in a list of orders: when it was made.
pub type OrderPlace = ListPlace<DateTime<Utc>>;

/// A time as a place's token writes it: nothing of it lost, and no `_`.
pub trait PlaceTime: Sized {
    fn write(&self) -> String;
    fn read(text: &str) -> Option<Self>;
}

impl PlaceTime for NaiveDateTime {
    fn write(&self) -> String {
        self.format("%Y-%m-%dT%H:%M:%S%.f").to_string()
    }

    fn read(text: &str) -> Option<Self> {
        NaiveDateTime::parse_from_str(text, "%Y-%m-%dT%H:%M:%S%.f").ok()
    }
}

impl PlaceTime for DateTime<Utc> {
    fn write(&self) -> String {
        self.to_rfc3339_opts(chrono::SecondsFormat::AutoSi, true)
    }

    fn read(text: &str) -> Option<Self> {
        DateTime::parse_from_rfc3339(text).ok().map(|at| at.with_timezone(&Utc))
    }
}

impl<T: PlaceTime> ListPlace<T> {
    /// The place as a list's address carries it.
    pub fn token(&self) -> String {
        format!("{}_{}", self.at.write(), self.id)
    }

    /// The place a [`ListPlace::token`] gives; none for anything else.
    pub fn parse(token: &str) -> Option<Self> {
        let (at, id) = token.split_once('_')?;
        let at = T::read(at)?;
        (!id.is_empty()).then(|| ListPlace { at, id: id.to_owned() })
    }
}

/// A page of `rows` read one more than `size` to know whether another
/// page follows: the first `size`, and when there was more, the place of
/// the last one kept, where the next page starts.
pub fn page_of<R, T>(mut rows: Vec<R>, size: usize, place: impl Fn(&R) -> ListPlace<T>) -> (Vec<R>, Option<ListPlace<T>>) {
    let more = rows.len() > size;
    rows.truncate(size);
    let next = if more { rows.last().map(place) } else { None };
    (rows, next)
}

#[cfg(test)]
mod tests {
    use super::{ListPlace, OrderPlace, SessionPlace, page_of};

    #[test]
    fn a_page_read_one_longer_names_where_the_next_starts() {
        let place = |n: &u32| ListPlace { at: "2027-03-01T09:30:00".parse().unwrap(), id: n.to_string() };
        let at = |n: u32| Some(SessionPlace { at: "2027-03-01T09:30:00".parse().unwrap(), id: n.to_string() });
        assert_eq!(page_of(vec![1, 2, 3], 2, place), (vec![1, 2], at(2)));
        assert_eq!(page_of(vec![1, 2], 2, place), (vec![1, 2], None));
        assert_eq!(page_of(Vec::<u32>::new(), 2, place), (vec![], None));
    }

    #[test]
    fn a_place_is_read_back_from_its_token_and_nothing_else_is() {
        let session = SessionPlace { at: "2027-03-01T09:30:00".parse().unwrap(), id: "0196_a-b".to_owned() };
        assert_eq!(session.token(), "2027-03-01T09:30:00_0196_a-b");
        assert_eq!(SessionPlace::parse(&session.token()), Some(session));
        for bad in ["", "2027-03-01T09:30:00", "2027-03-01T09:30:00_", "2027-03-01_x", "x_2027-03-01T09:30:00", "2027-13-01T09:30:00_x"] {
            assert_eq!(SessionPlace::parse(bad), None, "{bad}");
        }
        // An order's time to the nanosecond, as it was stored.
        let order = OrderPlace { at: "2026-12-02T03:58:30.123456789Z".parse().unwrap(), id: "0196-order".to_owned() };
        assert_eq!(order.token(), "2026-12-02T03:58:30.123456789Z_0196-order");
        assert_eq!(OrderPlace::parse(&order.token()), Some(order));
        assert_eq!(OrderPlace::parse("2026-12-02T03:58:30_x"), None, "a time without its zone");
    }
}
