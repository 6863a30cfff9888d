//! The back office's people (decision 017): the roles staff hold
//! and what each may do. The server checks these on every admin call; the
//! browser only hides what they refuse.

use serde::Serialize;
use ts_rs::TS;

/// What a staff member is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Role {
    /// Everything, and manages staff.
    Owner,
    /// Operations and money.
    Staff,
    /// Reads the rosters of the sessions they teach.
    Tutor,
    /// Edits content only.
    Editor,
}

/// One thing an admin call does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export)]
pub enum Permission {
    /// Add and disable staff.
    ManageStaff,
    /// Read the audit log.
    Audit,
    /// Open, change and cancel sessions; read every roster.
    Sessions,
    /// Read the rosters of one's own sessions and mark attendance there.
    Rosters,
    /// Find and read orders, resend their mails.
    Orders,
    /// Refund, record payments, move and cancel bookings, change deadlines.
    Money,
    /// Discount codes and upsell offers.
    Codes,
    /// The enquiry and payment-plan inbox.
    Enquiries,
    /// The accountant's exports and the dashboard's figures.
    Figures,
    /// The site's content (decision 018).
    Content,
    /// A booked student's forms, flags and documents before training, and
    /// the verdict on a document (decision 033); tutors on their own
    /// sessions only.
    Readiness,
    /// The answers of a medical form: special category data (UK GDPR),
    /// for those who teach the student and the owner only.
    MedicalAnswers,
}

impl Permission {
    pub const ALL: [Permission; 12] = [
        Permission::ManageStaff,
        Permission::Audit,
        Permission::Sessions,
        Permission::Rosters,
        Permission::Orders,
        Permission::Money,
        Permission::Codes,
        Permission::Enquiries,
        Permission::Figures,
        Permission::Content,
        Permission::Readiness,
        Permission::MedicalAnswers,
    ];
}

impl Role {
    pub const ALL: [Role; 4] = [Role::Owner, Role::Staff, Role::Tutor, Role::Editor];

    pub fn as_str(self) -> &'static str {
        match self {
            Role::Owner => "owner",
            Role::Staff => "staff",
            Role::Tutor => "tutor",
            Role::Editor => "editor",
        }
    }

    pub fn parse(value: &str) -> Option<Role> {
        Role::ALL.into_iter().find(|role| role.as_str() == value)
    }

    /// The one table of who may do what.
    pub fn allows(self, permission: Permission) -> bool {
        match self {
            Role::Owner => true,
            Role::Staff => !matches!(permission, Permission::ManageStaff | Permission::MedicalAnswers),
            Role::Tutor => matches!(permission, Permission::Rosters | Permission::Readiness | Permission::MedicalAnswers),
            Role::Editor => matches!(permission, Permission::Content),
        }
    }

    /// Every permission the role holds, for the browser's menus.
    pub fn permissions(self) -> Vec<Permission> {
        Permission::ALL.into_iter().filter(|p| self.allows(*p)).collect()
    }

    /// Whether the role reads every session's roster, not only its own.
    pub fn reads_every_roster(self) -> bool {
        self.allows(Permission::Sessions)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_owner_manages_staff() {
        for role in Role::ALL {
            assert_eq!(role.allows(Permission::ManageStaff), role == Role::Owner, "{role:?}");
        }
    }

    #[test]
    fn staff_run_operations_and_money_but_not_people() {
        let staff = Role::Staff.permissions();
        assert!(staff.contains(&Permission::Money) && staff.contains(&Permission::Sessions) && staff.contains(&Permission::Audit));
        assert!(!staff.contains(&Permission::ManageStaff));
    }

    #[test]
    fn medical_answers_are_read_by_those_who_teach_and_the_owner_only() {
        let readers: Vec<Role> = Role::ALL.into_iter().filter(|role| role.allows(Permission::MedicalAnswers)).collect();
        assert_eq!(readers, [Role::Owner, Role::Tutor]);
        assert!(Role::Staff.allows(Permission::Readiness) && !Role::Editor.allows(Permission::Readiness));
    }

    #[test]
    fn tutors_read_rosters_and_editors_edit_content_only() {
        assert_eq!(Role::Tutor.permissions(), vec![Permission::Rosters, Permission::Readiness, Permission::MedicalAnswers]);
        assert!(!Role::Tutor.reads_every_roster());
        assert_eq!(Role::Editor.permissions(), vec![Permission::Content]);
        assert!(Role::Owner.reads_every_roster() && Role::Staff.reads_every_roster());
    }

    #[test]
    fn roles_read_back_from_their_names() {
        for role in Role::ALL {
            assert_eq!(Role::parse(role.as_str()), Some(role));
        }
        assert_eq!(Role::parse("admin"), None);
    }
}
