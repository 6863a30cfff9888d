//! Rows written many at a time (decision 037): a [`Batch`] gathers the
//! rows of one table and [`GrowSteps::flush`] writes them as multi-row
//! inserts, each within its engine's limit of bound parameters. The one
//! place where the engines differ for a grown history.

use chrono::{DateTime, NaiveDate, NaiveDateTime, Utc};

use crate::{Backend, for_both_engines};

/// One value of a row, bound with the type the rest of the code binds
/// for its column, so both engines store it as they store any other.
#[derive(Debug, Clone)]
pub(crate) enum Cell {
    Text(String),
    OptText(Option<String>),
    Int(i64),
    Bool(bool),
    OptBool(Option<bool>),
    Date(NaiveDate),
    OptDate(Option<NaiveDate>),
    WallClock(NaiveDateTime),
    Time(DateTime<Utc>),
    OptTime(Option<DateTime<Utc>>),
}

impl From<String> for Cell {
    fn from(v: String) -> Self {
        Cell::Text(v)
    }
}

impl From<&str> for Cell {
    fn from(v: &str) -> Self {
        Cell::Text(v.to_owned())
    }
}

impl From<Option<String>> for Cell {
    fn from(v: Option<String>) -> Self {
        Cell::OptText(v)
    }
}

impl From<i64> for Cell {
    fn from(v: i64) -> Self {
        Cell::Int(v)
    }
}

impl From<bool> for Cell {
    fn from(v: bool) -> Self {
        Cell::Bool(v)
    }
}

impl From<Option<bool>> for Cell {
    fn from(v: Option<bool>) -> Self {
        Cell::OptBool(v)
    }
}

impl From<NaiveDate> for Cell {
    fn from(v: NaiveDate) -> Self {
        Cell::Date(v)
    }
}

impl From<Option<NaiveDate>> for Cell {
    fn from(v: Option<NaiveDate>) -> Self {
        Cell::OptDate(v)
    }
}

impl From<NaiveDateTime> for Cell {
    fn from(v: NaiveDateTime) -> Self {
        Cell::WallClock(v)
    }
}

impl From<DateTime<Utc>> for Cell {
    fn from(v: DateTime<Utc>) -> Self {
        Cell::Time(v)
    }
}

impl From<Option<DateTime<Utc>>> for Cell {
    fn from(v: Option<DateTime<Utc>>) -> Self {
        Cell::OptTime(v)
    }
}

/// The cells of one row, in the order of its batch's columns.
macro_rules! row {
    ($($value:expr),* $(,)?) => {
        vec![$($crate::grow::rows::Cell::from($value)),*]
    };
}
pub(crate) use row;

/// Bound parameters one statement may carry: SQLite's limit is 32,766,
/// PostgreSQL's 65,535.
fn parameter_limit(backend: Backend) -> usize {
    match backend {
        Backend::Sqlite => 32_766,
        Backend::Postgres => 65_535,
    }
}

/// Rows of one table waiting to be written.
pub(crate) struct Batch {
    backend: Backend,
    table: &'static str,
    columns: &'static [&'static str],
    cells: Vec<Cell>,
    rows_per_statement: usize,
    /// Rows written so far.
    pub written: u64,
}

impl Batch {
    pub fn new(backend: Backend, table: &'static str, columns: &'static [&'static str]) -> Self {
        let rows_per_statement = (parameter_limit(backend) / columns.len()).min(2_000);
        Batch { backend, table, columns, cells: Vec::new(), rows_per_statement, written: 0 }
    }

    pub fn table(&self) -> &'static str {
        self.table
    }

    /// Adds a row; true when the batch holds enough rows to be flushed.
    pub fn push(&mut self, row: Vec<Cell>) -> bool {
        assert_eq!(row.len(), self.columns.len(), "a row of {} has one value per column", self.table);
        self.cells.extend(row);
        self.rows() >= self.rows_per_statement * 8
    }

    fn rows(&self) -> usize {
        self.cells.len() / self.columns.len()
    }

    /// The insert of `rows` rows.
    fn statement(&self, rows: usize) -> String {
        let width = self.columns.len();
        let mut sql = format!("insert into {} ({}) values ", self.table, self.columns.join(", "));
        for row in 0..rows {
            if row > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for column in 0..width {
                if column > 0 {
                    sql.push_str(", ");
                }
                // SQLite finds a numbered parameter's name by a search
                // through all of them, once per value bound: a statement
                // of 30,000 `$n` takes seconds to bind, of `?` none.
                match self.backend {
                    Backend::Sqlite => sql.push('?'),
                    Backend::Postgres => {
                        sql.push('$');
                        sql.push_str(&(row * width + column + 1).to_string());
                    }
                }
            }
            sql.push(')');
        }
        sql
    }
}

pub(crate) trait GrowSteps {
    /// Writes every row of `batch` and empties it.
    async fn flush(&mut self, batch: &mut Batch) -> sqlx::Result<()>;
}

for_both_engines! {
    impl GrowSteps {
        async fn flush(&mut self, batch: &mut Batch) -> sqlx::Result<()> {
            let width = batch.columns.len();
            let cells = std::mem::take(&mut batch.cells);
            for chunk in cells.chunks(batch.rows_per_statement * width) {
                let sql = batch.statement(chunk.len() / width);
                let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
                for cell in chunk {
                    query = match cell {
                        Cell::Text(v) => query.bind(v.as_str()),
                        Cell::OptText(v) => query.bind(v.as_deref()),
                        Cell::Int(v) => query.bind(*v),
                        Cell::Bool(v) => query.bind(*v),
                        Cell::OptBool(v) => query.bind(*v),
                        Cell::Date(v) => query.bind(*v),
                        Cell::OptDate(v) => query.bind(*v),
                        Cell::WallClock(v) => query.bind(*v),
                        Cell::Time(v) => query.bind(*v),
                        Cell::OptTime(v) => query.bind(*v),
                    };
                }
                query.execute(&mut *self).await.inspect_err(|error| tracing::error!(table = batch.table, %error, "Failed to write grown rows"))?;
                batch.written += (chunk.len() / width) as u64;
            }
            Ok(())
        }
    }
}

/// Pushes `row` to `batch` on `conn`, writing the batch when it is full.
pub(crate) async fn put<C: GrowSteps>(conn: &mut C, batch: &mut Batch, row: Vec<Cell>) -> sqlx::Result<()> {
    if batch.push(row) {
        conn.flush(batch).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_stay_within_each_engines_parameter_limit() {
        let columns: &'static [&'static str] = &["a", "b", "c"];
        for backend in [Backend::Sqlite, Backend::Postgres] {
            let batch = Batch::new(backend, "t", columns);
            assert!(batch.rows_per_statement * columns.len() <= parameter_limit(backend));
        }
        let batch = Batch::new(Backend::Postgres, "t", columns);
        assert_eq!(batch.statement(2), "insert into t (a, b, c) values ($1, $2, $3), ($4, $5, $6)");
        let batch = Batch::new(Backend::Sqlite, "t", columns);
        assert_eq!(batch.statement(2), "insert into t (a, b, c) values (?, ?, ?), (?, ?, ?)");
    }
}
