//! Who the college is in titles and mails: its site record's name, email
//! and address, as every mail and document names it.

use enrol_domain::site::SiteData;

/// Who the college is in titles and mails.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct College {
    pub name: String,
    pub email_address: String,
    /// Its postal address, as the site record gives it.
    pub address: String,
}

impl College {
    /// The college of `site`; before any content is loaded, "Enrol".
    pub fn of(site: Option<&SiteData>) -> Self {
        site.map_or_else(
            || College { name: "Enrol".to_owned(), email_address: String::new(), address: String::new() },
            |s| College { name: s.title.clone(), email_address: s.email_address.clone(), address: s.address.clone() },
        )
    }
}
