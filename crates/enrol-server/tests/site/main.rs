//! Black-box tests: the real `enrol` app on port 0 over real HTTP, against
//! a fresh SQLite file and a fresh PostgreSQL database.

mod account_area;
mod accounts;
mod admin;
mod admin_codes;
mod admin_content;
mod admin_content_withdraw;
mod admin_enquiries;
mod admin_media;
mod admin_orders;
mod admin_races;
mod admin_sessions;
mod api;
mod balance;
mod calendar;
mod cancellation;
mod content;
mod crash;
mod date_change;
mod enrol_checkout;
mod graphql;
mod helpers;
mod images;
mod limits;
mod localstripe;
mod mail;
mod media_s3;
mod newsletter;
mod online_checkout;
mod openapi;
mod ownership;
mod pages;
mod receipts;
mod schema;
mod stripe_mode;
mod waiting_list;
