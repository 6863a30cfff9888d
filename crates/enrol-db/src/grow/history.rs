//! A grown history in memory (decision 037): the dated sessions, the
//! bookings that fill them (each kept, moved or cancelled), the e-learning
//! orders, and the students who made them, drawn from one seed with the
//! shapes of `enrol_domain::grow`. Nothing here touches the database.

use chrono::{DateTime, Days, Duration, NaiveDate, NaiveDateTime, Utc};

use enrol_domain::grow::{self, Fate, GrowPlan, Prng};
use enrol_domain::london;
use enrol_domain::reference::{OrderKind, reference};

use crate::grow::catalogue::Catalogue;

#[derive(Debug, Clone)]
pub(crate) struct Session {
    pub id: String,
    pub course: usize,
    pub date: NaiveDate,
    pub start_at: NaiveDateTime,
    pub end_at: NaiveDateTime,
    pub seats: i64,
    /// Bookings kept on it (not cancelled): `session.registrations`.
    pub registrations: i64,
}

#[derive(Debug, Clone)]
pub(crate) struct Student {
    pub id: String,
    pub given_name: String,
    pub family_name: String,
    pub email: String,
    pub phone: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Debug, Clone)]
pub(crate) struct Booking {
    pub id: String,
    pub reference: String,
    pub student: usize,
    pub session: usize,
    pub created_at: DateTime<Utc>,
    pub fate: Fate,
    /// The date it moved from, and when (moved bookings).
    pub moved: Option<(usize, DateTime<Utc>)>,
    /// When it was cancelled (cancelled bookings).
    pub cancelled_at: Option<DateTime<Utc>>,
    /// A member of staff moved or cancelled it.
    pub by_staff: bool,
}

#[derive(Debug, Clone)]
pub(crate) struct OnlineOrder {
    pub id: String,
    pub reference: String,
    pub student: usize,
    pub course: usize,
    pub created_at: DateTime<Utc>,
    /// How many of the course's lessons are done.
    pub lessons_done: usize,
}

pub(crate) struct History {
    pub today: NaiveDate,
    pub sessions: Vec<Session>,
    pub students: Vec<Student>,
    pub bookings: Vec<Booking>,
    pub online_orders: Vec<OnlineOrder>,
    /// The last order reference number the history used.
    pub last_reference: i64,
}

/// A UUIDv7-shaped id for something made at `at`: its time first, so
/// indexes stay compact, its random bits from the seed.
pub(crate) fn id_at(rng: &mut Prng, at: DateTime<Utc>) -> String {
    let millis = u64::try_from(at.timestamp_millis()).unwrap_or_default();
    uuid::Builder::from_unix_timestamp_millis(millis, &rng.bytes::<10>()).into_uuid().to_string()
}

/// A token's SHA-256 as stored: 64 hex digits (from the seed; nobody holds the token).
pub(crate) fn token_hash(rng: &mut Prng) -> String {
    rng.bytes::<32>().iter().map(|b| format!("{b:02x}")).collect()
}

/// `day` at `minutes` past midnight, London time.
pub(crate) fn at_minutes(day: NaiveDate, minutes: i64) -> DateTime<Utc> {
    london::start_of_day(day) + Duration::minutes(minutes)
}

/// A moment in the college's working day.
fn working_moment(rng: &mut Prng, day: NaiveDate) -> DateTime<Utc> {
    at_minutes(day, rng.between(8 * 60, 21 * 60))
}

const GIVEN_NAMES: [&str; 32] = [
    "Amelia", "Olivia", "Isla", "Ava", "Mia", "Grace", "Sophia", "Lily", "Freya", "Emily", "Ella", "Chloe", "Evie", "Poppy", "Jessica",
    "Holly", "Leah", "Megan", "Zara", "Aisha", "Priya", "Hannah", "Ruby", "Sienna", "Daisy", "Layla", "Niamh", "Erin", "Jade", "James",
    "Oliver", "Adam",
];
const FAMILY_NAMES: [&str; 32] = [
    "Smith", "Jones", "Taylor", "Brown", "Williams", "Wilson", "Johnson", "Davies", "Patel", "Robinson", "Wright", "Thompson", "Evans",
    "Walker", "White", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke", "Khan", "Hughes", "Edwards", "Turner", "Lewis", "Hill",
    "Murphy", "Kelly", "Ahmed", "Begum", "Shah",
];

/// Days from `first` to `last`, weighted by `day_weight`, to draw from.
struct Calendar {
    days: Vec<NaiveDate>,
    cumulative: Vec<f64>,
}

impl Calendar {
    fn new(first: NaiveDate, last: NaiveDate) -> Self {
        let (mut days, mut cumulative, mut total) = (Vec::new(), Vec::new(), 0.0);
        let mut day = first;
        loop {
            total += grow::day_weight(first, day);
            days.push(day);
            cumulative.push(total);
            match day.succ_opt() {
                Some(next) if next <= last => day = next,
                _ => break,
            }
        }
        Calendar { days, cumulative }
    }

    fn draw(&self, rng: &mut Prng) -> NaiveDate {
        let target = rng.unit() * self.cumulative.last().copied().unwrap_or(0.0);
        let at = self.cumulative.partition_point(|c| *c < target).min(self.days.len() - 1);
        self.days[at]
    }
}

/// Grows the history of `plan` from `catalogue` as of `now`.
pub(crate) fn grow_history(plan: GrowPlan, seed: u64, catalogue: &Catalogue, now: DateTime<Utc>) -> History {
    let mut rng = Prng::new(seed);
    let today = london::today(now);
    let first = plan.first_day(today);
    let mut sessions = sessions(&mut rng, plan, catalogue, first, today);
    let mut bookings = bookings(&mut rng, &sessions, first, now);
    for booking in bookings.iter().filter(|b| b.fate != Fate::Cancelled) {
        sessions[booking.session].registrations += 1;
    }
    let online_orders = online_orders(&mut rng, plan, catalogue, first, now);
    let mut history =
        History { today, sessions, students: Vec::new(), bookings: Vec::new(), online_orders, last_reference: catalogue.last_reference };
    bookings.sort_by_key(|b| b.created_at);
    history.bookings = bookings;
    history.online_orders.sort_by_key(|o| o.created_at);
    buyers(&mut rng, plan, &mut history);
    history
}

fn sessions(rng: &mut Prng, plan: GrowPlan, catalogue: &Catalogue, first: NaiveDate, today: NaiveDate) -> Vec<Session> {
    if catalogue.courses.is_empty() {
        return Vec::new();
    }
    let calendar = Calendar::new(first, plan.last_day(today));
    // A course runs at most once a day: draw until there are enough dates.
    let wanted = usize::try_from(plan.sessions()).unwrap_or(usize::MAX);
    let mut drawn = std::collections::BTreeSet::new();
    for _ in 0..wanted.saturating_mul(4) {
        if drawn.len() == wanted {
            break;
        }
        let day = calendar.draw(rng);
        drawn.insert((day, rng.index(catalogue.courses.len())));
    }
    drawn
        .into_iter()
        .enumerate()
        .map(|(n, (date, course))| {
            let c = &catalogue.courses[course];
            Session {
                id: format!("{}-grown-{n:05}", c.event_id),
                course,
                date,
                start_at: date.and_time(c.start),
                end_at: date.and_time(c.end),
                seats: grow::seats(rng),
                registrations: 0,
            }
        })
        .collect()
}

fn bookings(rng: &mut Prng, sessions: &[Session], first: NaiveDate, now: DateTime<Utc>) -> Vec<Booking> {
    let today = london::today(now);
    let mut by_course: std::collections::BTreeMap<usize, Vec<usize>> = std::collections::BTreeMap::new();
    for (i, s) in sessions.iter().enumerate() {
        by_course.entry(s.course).or_default().push(i);
    }
    let mut bookings = Vec::new();
    for (index, session) in sessions.iter().enumerate() {
        let days_ahead = (session.date - today).num_days();
        #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation)]
        let wanted = (session.seats as f64 * grow::fill(rng, days_ahead)).round() as i64;
        let mut taken = 0;
        while taken < wanted.min(session.seats) {
            let lead = grow::lead_days(rng);
            let mut booked_on = session.date.checked_sub_days(Days::new(lead.unsigned_abs())).unwrap_or(first);
            if booked_on > today {
                booked_on = today.checked_sub_days(Days::new(rng.below(45))).unwrap_or(today);
            }
            let last_day_to_book = session.date.pred_opt().unwrap_or(session.date).min(today);
            let booked_on = booked_on.max(first.min(last_day_to_book)).min(last_day_to_book);
            let created_at = working_moment(rng, booked_on).min(now);
            let mut fate = grow::fate(rng);
            let moved = match fate {
                Fate::Moved => {
                    // From a date of the same course a few runs before or after.
                    let siblings = &by_course[&session.course];
                    let here = siblings.binary_search(&index).unwrap_or(0);
                    let step = usize::try_from(rng.between(1, 3)).unwrap_or(1);
                    let near =
                        if rng.chance(0.5) { siblings.get(here + step) } else { here.checked_sub(step).and_then(|i| siblings.get(i)) };
                    let from = near.copied().unwrap_or(index);
                    let until = session.date.min(sessions[from].date).min(today);
                    (from != index && until > booked_on).then(|| {
                        let day = grow::cancelled_on(rng, booked_on, until, today);
                        (from, working_moment(rng, day).clamp(created_at, now.max(created_at)))
                    })
                }
                _ => None,
            };
            if fate == Fate::Moved && moved.is_none() {
                fate = Fate::Kept;
            }
            let cancelled_at = (fate == Fate::Cancelled).then(|| {
                let day = grow::cancelled_on(rng, booked_on, session.date, today);
                working_moment(rng, day).min(now).max(created_at)
            });
            let by_staff = fate != Fate::Kept && grow::by_staff(rng);
            if fate != Fate::Cancelled {
                taken += 1;
            }
            bookings.push(Booking {
                id: id_at(rng, created_at),
                reference: String::new(),
                student: 0,
                session: index,
                created_at,
                fate,
                moved,
                cancelled_at,
                by_staff,
            });
        }
    }
    bookings
}

fn online_orders(rng: &mut Prng, plan: GrowPlan, catalogue: &Catalogue, first: NaiveDate, now: DateTime<Utc>) -> Vec<OnlineOrder> {
    let today = london::today(now);
    if catalogue.online.is_empty() {
        return Vec::new();
    }
    let calendar = Calendar::new(first, today);
    (0..plan.online_orders())
        .map(|_| {
            let day = calendar.draw(rng);
            let created_at = working_moment(rng, day).min(now);
            let course = rng.index(catalogue.online.len());
            let lessons = catalogue.online[course].lessons.len();
            // Most finish; some stop part of the way; a few never start.
            let lessons_done = if rng.chance(0.6) { lessons } else { rng.index(lessons + 1) };
            OnlineOrder { id: id_at(rng, created_at), reference: String::new(), student: 0, course, created_at, lessons_done }
        })
        .collect()
}

/// Who bought what: in time order, each purchase by a new student or,
/// about four times in five, by one who came before (recent ones most).
/// References are given in the same order, as checkout numbers them.
fn buyers(rng: &mut Prng, plan: GrowPlan, history: &mut History) {
    #[allow(clippy::cast_precision_loss)]
    let purchases = (history.bookings.len() + history.online_orders.len()).max(1) as f64;
    #[allow(clippy::cast_precision_loss)]
    let new_share = (plan.students() as f64 / purchases).min(1.0);
    let (mut b, mut o) = (0, 0);
    let mut number = history.last_reference;
    while b < history.bookings.len() || o < history.online_orders.len() {
        let booking_next = o >= history.online_orders.len()
            || (b < history.bookings.len() && history.bookings[b].created_at <= history.online_orders[o].created_at);
        let at = if booking_next { history.bookings[b].created_at } else { history.online_orders[o].created_at };
        let student = if history.students.is_empty() || rng.chance(new_share) {
            history.students.push(new_student(rng, history.students.len(), at));
            history.students.len() - 1
        } else {
            let len = history.students.len();
            let back = rng.unit().powi(3);
            #[allow(clippy::cast_precision_loss, clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let back = (back * len as f64) as usize;
            len - 1 - back.min(len - 1)
        };
        number += 1;
        if booking_next {
            history.bookings[b].student = student;
            history.bookings[b].reference = reference(OrderKind::Booking, number);
            b += 1;
        } else {
            history.online_orders[o].student = student;
            history.online_orders[o].reference = reference(OrderKind::Online, number);
            o += 1;
        }
    }
    history.last_reference = number;
}

fn new_student(rng: &mut Prng, n: usize, first_purchase: DateTime<Utc>) -> Student {
    let given = GIVEN_NAMES[rng.index(GIVEN_NAMES.len())];
    let family = FAMILY_NAMES[rng.index(FAMILY_NAMES.len())];
    let created_at = first_purchase - Duration::minutes(rng.between(5, 90));
    Student {
        id: id_at(rng, created_at),
        given_name: given.to_owned(),
        family_name: family.to_owned(),
        email: format!("{}.{}.{n}@grown.example", given.to_lowercase(), family.to_lowercase()),
        phone: format!("+447700900{:03}", rng.below(1000)),
        created_at,
    }
}
