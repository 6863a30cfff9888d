//! Pure rules and the shapes the server and the pages share. No I/O.

pub mod auth;
pub mod balance;
pub mod booking;
pub mod checkout;
pub mod contact;
pub mod enquiry;
pub mod enrollment;
pub mod error_reporting;
pub mod evidence;
pub mod forms;
pub mod html;
pub mod intake;
pub mod london;
pub mod mail;
pub mod money;
pub mod online_order;
pub mod page;
pub mod phone;
pub mod receipt;
pub mod records;
pub mod search;
pub mod site;
pub mod tracking;
