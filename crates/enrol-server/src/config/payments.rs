//! The payment gateway the environment names: Stripe's keys, all three, or
//! none for the sandbox.

#[derive(Clone)]
pub enum PaymentsConfig {
    /// Signs its own webhook events with `secret` (`ENROL_SANDBOX_WEBHOOK_SECRET`,
    /// else a random one per process).
    Sandbox { webhook_secret: String },
    Stripe {
        secret_key: String,
        publishable_key: String,
        webhook_secret: String,
        /// `STRIPE_API_BASE`: another server speaking Stripe's API (stripe-mock,
        /// a recorded fake); `https://api.stripe.com` when unset.
        api_base: Option<String>,
    },
}

/// Secrets never reach the logs.
impl std::fmt::Debug for PaymentsConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PaymentsConfig::Sandbox { .. } => f.write_str("Sandbox"),
            PaymentsConfig::Stripe { publishable_key, .. } => write!(f, "Stripe({publishable_key})"),
        }
    }
}

impl PaymentsConfig {
    pub(super) fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let keys = ["STRIPE_SECRET_KEY", "STRIPE_PUBLISHABLE_KEY", "STRIPE_WEBHOOK_SECRET"].map(|k| get(k).filter(|v| !v.is_empty()));
        match keys {
            [None, None, None] => Ok(PaymentsConfig::Sandbox {
                webhook_secret: get("ENROL_SANDBOX_WEBHOOK_SECRET")
                    .unwrap_or_else(|| format!("whsec_sandbox_{}", uuid::Uuid::new_v4().simple())),
            }),
            [Some(secret_key), Some(publishable_key), Some(webhook_secret)] => {
                anyhow::ensure!(
                    secret_key.starts_with("sk_") || secret_key.starts_with("rk_"),
                    "STRIPE_SECRET_KEY must be a Stripe secret key (sk_…)"
                );
                anyhow::ensure!(publishable_key.starts_with("pk_"), "STRIPE_PUBLISHABLE_KEY must be a Stripe publishable key (pk_…)");
                anyhow::ensure!(webhook_secret.starts_with("whsec_"), "STRIPE_WEBHOOK_SECRET must be a webhook signing secret (whsec_…)");
                let api_base = get("STRIPE_API_BASE").filter(|v| !v.is_empty());
                Ok(PaymentsConfig::Stripe { secret_key, publishable_key, webhook_secret, api_base })
            }
            _ => anyhow::bail!(
                "Set all three of STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET, or none for the sandbox"
            ),
        }
    }
}
