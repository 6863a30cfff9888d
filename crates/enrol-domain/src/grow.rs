//! The shape of a grown history (decision 037): how many students,
//! sessions, enquiries and e-learning orders a college of a given age
//! has, when in the year it trains, how full its days are and what
//! becomes of a booking. Pure and seeded, so `enrol demo grow` makes the
//! same history from the same seed; the database side lives in
//! `enrol_db`'s `grow` module.

use chrono::{Datelike, Days, NaiveDate};

/// The seed `enrol demo grow` uses when none is given.
pub const DEFAULT_SEED: u64 = 2016;

/// Sessions a year at scale 1 (20,000 over ten years).
const SESSIONS_A_YEAR: f64 = 2_000.0;
/// Students a year at scale 1 (60,000 over ten years).
const STUDENTS_A_YEAR: f64 = 6_000.0;
/// Enquiries through the site's forms a year at scale 1.
const ENQUIRIES_A_YEAR: f64 = 1_500.0;
/// E-learning orders a year at scale 1.
const ONLINE_ORDERS_A_YEAR: f64 = 1_800.0;
/// Each year busier than the one before by this much.
const YEARLY_GROWTH: f64 = 1.12;
/// How far ahead the college has published dates.
pub const DAYS_AHEAD: u64 = 182;

/// A small seeded generator (SplitMix64): fast, with no dependency, and
/// the same numbers on every machine for one seed.
#[derive(Debug, Clone)]
pub struct Prng {
    state: u64,
}

impl Prng {
    pub fn new(seed: u64) -> Self {
        Prng { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in [0, 1).
    pub fn unit(&mut self) -> f64 {
        #[allow(clippy::cast_precision_loss)]
        let top = (self.next_u64() >> 11) as f64;
        top / (1u64 << 53) as f64
    }

    /// A number in [0, n); 0 when n is 0.
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 { 0 } else { self.next_u64() % n }
    }

    /// An index into a list of `len` things.
    pub fn index(&mut self, len: usize) -> usize {
        usize::try_from(self.below(len as u64)).unwrap_or(0)
    }

    /// A whole number from `low` to `high`, both included.
    pub fn between(&mut self, low: i64, high: i64) -> i64 {
        let span = u64::try_from(high - low + 1).unwrap_or(1);
        low + i64::try_from(self.below(span)).unwrap_or(0)
    }

    /// True with probability `p`.
    pub fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }

    /// Bytes for an id or a token.
    pub fn bytes<const N: usize>(&mut self) -> [u8; N] {
        let mut out = [0u8; N];
        for chunk in out.chunks_mut(8) {
            let word = self.next_u64().to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
        out
    }
}

/// Why a history cannot be grown as asked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GrowRefused {
    #[error("--years must be a whole number from 1 to 20")]
    Years,
    #[error("--scale must be a number above 0 and at most 10, like 1 or 0.01")]
    Scale,
}

/// How much history to grow: `years` back from today, at `scale` times
/// a busy college's numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GrowPlan {
    pub years: u32,
    pub scale: f64,
}

impl GrowPlan {
    pub fn new(years: u32, scale: f64) -> Result<Self, GrowRefused> {
        if !(1..=20).contains(&years) {
            return Err(GrowRefused::Years);
        }
        if scale.is_nan() || scale <= 0.0 || scale > 10.0 {
            return Err(GrowRefused::Scale);
        }
        Ok(GrowPlan { years, scale })
    }

    fn per_year(&self, a_year: f64, least: u64) -> u64 {
        let wanted = (a_year * f64::from(self.years) * self.scale).round();
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        let wanted = wanted as u64;
        wanted.max(least)
    }

    /// Dated sessions, past and published ahead.
    pub fn sessions(&self) -> u64 {
        self.per_year(SESSIONS_A_YEAR, 12)
    }

    /// Students who book or buy.
    pub fn students(&self) -> u64 {
        self.per_year(STUDENTS_A_YEAR, 10)
    }

    pub fn enquiries(&self) -> u64 {
        self.per_year(ENQUIRIES_A_YEAR, 5)
    }

    pub fn online_orders(&self) -> u64 {
        self.per_year(ONLINE_ORDERS_A_YEAR, 5)
    }

    /// The first day of the history.
    pub fn first_day(&self, today: NaiveDate) -> NaiveDate {
        today.checked_sub_days(Days::new(365 * u64::from(self.years))).unwrap_or(today)
    }

    /// The last day with published dates.
    pub fn last_day(&self, today: NaiveDate) -> NaiveDate {
        today.checked_add_days(Days::new(DAYS_AHEAD)).unwrap_or(today)
    }
}

/// How busy month `month` (1 to 12) is: spring and autumn are the
/// college's seasons, August and December its quiet months.
pub fn season_weight(month: u32) -> f64 {
    match month {
        1 => 0.7,
        2 => 0.9,
        3 => 1.4,
        4 => 1.3,
        5 => 1.2,
        6 => 0.9,
        7 => 0.7,
        8 => 0.45,
        9 => 1.3,
        10 => 1.45,
        11 => 1.1,
        _ => 0.5,
    }
}

/// How busy day `day` of a history that began on `first` is: its
/// season, times the college's growth since it began.
pub fn day_weight(first: NaiveDate, day: NaiveDate) -> f64 {
    #[allow(clippy::cast_precision_loss)]
    let years = (day - first).num_days().max(0) as f64 / 365.0;
    let weekday = if day.weekday().number_from_monday() >= 6 { 0.35 } else { 1.0 };
    season_weight(day.month()) * YEARLY_GROWTH.powf(years) * weekday
}

/// The seats of a new session: small practical groups, a few larger
/// theory days.
pub fn seats(rng: &mut Prng) -> i64 {
    if rng.chance(0.15) { rng.between(20, 30) } else { rng.between(10, 20) }
}

/// The share of a session's seats booked, `days_ahead` days before it
/// runs (0 or less: it has run): past days were mostly full; dates far
/// ahead are still filling.
pub fn fill(rng: &mut Prng, days_ahead: i64) -> f64 {
    let ran = 0.72 + 0.28 * rng.unit();
    if days_ahead <= 0 {
        return ran;
    }
    #[allow(clippy::cast_precision_loss)]
    let filling = (1.0 - days_ahead as f64 / 200.0).max(0.05);
    ran * filling
}

/// How many days before a session it was booked: most a few weeks ahead,
/// some months, a few at the last minute.
pub fn lead_days(rng: &mut Prng) -> i64 {
    let u = rng.unit().max(1e-9);
    #[allow(clippy::cast_possible_truncation)]
    let days = (-u.ln() * 50.0) as i64;
    (days + 2).min(240)
}

/// What became of a booking.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fate {
    /// It went ahead on the date booked.
    Kept,
    /// It moved from another date of the same course.
    Moved,
    /// It was cancelled before training.
    Cancelled,
}

/// About 8% of bookings are cancelled, 5% move to another date.
pub fn fate(rng: &mut Prng) -> Fate {
    let u = rng.unit();
    if u < 0.08 {
        Fate::Cancelled
    } else if u < 0.13 {
        Fate::Moved
    } else {
        Fate::Kept
    }
}

/// Whether a booking pays everything at once (about one in five) rather
/// than the booking fee and then the balance.
pub fn pays_in_full(rng: &mut Prng) -> bool {
    rng.chance(0.2)
}

/// When a balance due on `due_on` is paid, for a booking made on
/// `booked_on`, as of `today`: `None` while it is owed (not yet due and
/// not paid early, or overdue).
pub fn balance_paid_on(rng: &mut Prng, booked_on: NaiveDate, due_on: NaiveDate, today: NaiveDate) -> Option<NaiveDate> {
    let early = booked_on.max(due_on.checked_sub_days(Days::new(rng.below(12))).unwrap_or(due_on));
    if due_on > today {
        return (rng.chance(0.15) && early <= today).then_some(early);
    }
    // About 3% of balances that fell due are never paid (overdue).
    (!rng.chance(0.03)).then_some(early)
}

/// The day a booking made on `booked_on` for training on `starts_on` is
/// cancelled, before training and never after `today`.
pub fn cancelled_on(rng: &mut Prng, booked_on: NaiveDate, starts_on: NaiveDate, today: NaiveDate) -> NaiveDate {
    let last = starts_on.pred_opt().unwrap_or(starts_on).min(today).max(booked_on);
    let span = u64::try_from((last - booked_on).num_days()).unwrap_or(0);
    booked_on.checked_add_days(Days::new(rng.below(span + 1))).unwrap_or(booked_on)
}

/// Whether a member of staff made a change (cancelled or moved a
/// booking) rather than the student: staff changes are audited.
pub fn by_staff(rng: &mut Prng) -> bool {
    rng.chance(0.35)
}

/// How many people wait for a full session.
pub fn waiting_for_full(rng: &mut Prng) -> u64 {
    rng.below(4)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    #[test]
    fn one_seed_gives_one_sequence() {
        let (mut a, mut b) = (Prng::new(7), Prng::new(7));
        let first: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..5).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(first, (0..5).map(|_| Prng::new(8).next_u64()).collect::<Vec<_>>());
        let mut rng = Prng::new(1);
        for _ in 0..10_000 {
            let u = rng.unit();
            assert!((0.0..1.0).contains(&u));
            assert!((3..=9).contains(&rng.between(3, 9)));
        }
        assert_eq!(rng.below(0), 0);
    }

    #[test]
    fn a_decade_at_scale_one_is_a_busy_college() {
        let plan = GrowPlan::new(10, 1.0).unwrap();
        assert_eq!(plan.sessions(), 20_000);
        assert_eq!(plan.students(), 60_000);
        let small = GrowPlan::new(2, 0.005).unwrap();
        assert_eq!(small.sessions(), 20);
        assert_eq!(small.students(), 60);
        assert_eq!(GrowPlan::new(0, 1.0), Err(GrowRefused::Years));
        assert_eq!(GrowPlan::new(21, 1.0), Err(GrowRefused::Years));
        assert_eq!(GrowPlan::new(1, 0.0), Err(GrowRefused::Scale));
        assert_eq!(GrowPlan::new(1, f64::NAN), Err(GrowRefused::Scale));
        let today = day(2026, 11, 29);
        assert_eq!(plan.first_day(today), day(2016, 12, 1));
        assert_eq!(plan.last_day(today), day(2027, 5, 30));
    }

    #[test]
    fn spring_and_autumn_are_the_seasons_and_each_year_is_busier() {
        let peak = season_weight(10);
        assert!((1..=12).all(|m| season_weight(m) <= peak));
        assert!(season_weight(3) > 2.0 * season_weight(8));
        assert!(season_weight(10) > 2.0 * season_weight(12));
        let first = day(2016, 1, 4);
        assert!(day_weight(first, day(2025, 10, 6)) > 2.0 * day_weight(first, day(2016, 10, 3)));
        assert!(day_weight(first, day(2025, 10, 4)) < day_weight(first, day(2025, 10, 6)), "a Saturday is quieter");
    }

    #[test]
    fn bookings_are_kept_cancelled_and_moved_in_a_colleges_shares() {
        let mut rng = Prng::new(42);
        let draws = 100_000;
        let fates: Vec<Fate> = (0..draws).map(|_| fate(&mut rng)).collect();
        let share = |f: Fate| f64::from(u32::try_from(fates.iter().filter(|x| **x == f).count()).unwrap()) / f64::from(draws);
        assert!((share(Fate::Cancelled) - 0.08).abs() < 0.005);
        assert!((share(Fate::Moved) - 0.05).abs() < 0.005);
        let full = (0..draws).filter(|_| pays_in_full(&mut rng)).count();
        assert!((18_000..22_000).contains(&full));
    }

    #[test]
    fn days_are_fuller_once_run_and_bookings_come_weeks_ahead() {
        let mut rng = Prng::new(3);
        for _ in 0..1_000 {
            let past = fill(&mut rng, -3);
            assert!((0.72..=1.0).contains(&past));
            assert!(fill(&mut rng, 150) <= 0.25 + 1e-9);
            assert!((2..=240).contains(&lead_days(&mut rng)));
            assert!((10..=30).contains(&seats(&mut rng)));
        }
    }

    #[test]
    fn balances_are_paid_by_their_day_and_never_in_the_future() {
        let mut rng = Prng::new(9);
        let today = day(2026, 11, 29);
        let (booked, due) = (day(2026, 1, 5), day(2026, 3, 1));
        let mut owed = 0;
        for _ in 0..10_000 {
            match balance_paid_on(&mut rng, booked, due, today) {
                Some(paid) => assert!(paid >= booked && paid <= due),
                None => owed += 1,
            }
            if let Some(paid) = balance_paid_on(&mut rng, day(2026, 11, 20), day(2027, 1, 10), today) {
                assert!(paid <= today);
            }
            let cancelled = cancelled_on(&mut rng, booked, due, today);
            assert!(cancelled >= booked && cancelled < due);
        }
        assert!((150..500).contains(&owed), "about 3% overdue, got {owed}");
    }
}
