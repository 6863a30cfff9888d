//! `sqlx::migrate!` embeds the migrations: a changed or added one must
//! rebuild the crate.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
