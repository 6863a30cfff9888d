//! What a signed-in student changes in the account area (decision 014):
//! their forms' answers and evidence files, an intake call, their name,
//! phone, email and password. Reads go through `POST /api/graphql`. Every
//! call works on the caller's own rows only (`http::student`); a row of
//! someone else's answers 404, as one that does not exist.

pub mod email;
pub mod forms;
pub mod intake;
pub mod profile;
