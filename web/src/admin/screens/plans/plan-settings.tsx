import { z } from 'zod';
import { AdminFormView } from '../../components/admin-form';
import { ChoiceField, TextField } from '../../components/form-fields';
import { RequestView } from '../../components/request-view';
import { useAdminForm } from '../../components/use-admin-form';
import { adminPut } from '../../lib/admin-api';
import type { PlanSettings, PlanSettingsAnswer } from '../../lib/api-types';
import { wholeNumber } from '../../lib/form-rules';
import { can } from '../../lib/permissions';
import { useStaff } from '../../lib/staff-session';
import { useAdminData } from '../../lib/use-admin-data';

// The college's plan settings (decision 036): the most monthly parts a plan
// is offered in, and the days a refused charge waits before the card is
// tried again. Changing them is money's; plans agreed keep their parts.

const SETTINGS_PATH = '/api/admin/plan-settings';
const COUNTS = Array.from({ length: 11 }, (_, index) => String(index + 2)).map((count) => ({ value: count, label: `${count} instalments` }));
const RETRIES_WRONG = 'Enter up to 5 numbers of days, each 1 to 28, separated by commas, like 3, 7';

const schema = z.object({
  maxInstalments: wholeNumber('Choose the most instalments', 2),
  retryDays: z
    .string()
    .transform((typed) => typed.split(',').map((day) => day.trim()).filter(Boolean))
    .refine((days) => days.length <= 5 && days.every((day) => /^\d+$/.test(day) && Number(day) >= 1 && Number(day) <= 28), RETRIES_WRONG)
    .transform((days) => days.map(Number)),
});

function SettingsForm({ settings }: { settings: PlanSettings }) {
  const form = useAdminForm({
    schema,
    defaultValues: { maxInstalments: String(settings.maxInstalments), retryDays: settings.retryDays.join(', ') },
    labels: { maxInstalments: 'Most instalments', retryDays: 'Try a refused card again after (days)' },
    send: async (changed) => {
      await adminPut<PlanSettingsAnswer>(SETTINGS_PATH, changed);
      return 'Settings saved. Plans agreed from now on follow them; plans agreed already keep their instalments.';
    },
  });
  return (
    <AdminFormView form={form} submit="Save the settings">
      <ChoiceField form={form} name="maxInstalments" choices={COUNTS} hint="Fewer are offered when training is near." required />
      <TextField
        form={form}
        name="retryDays"
        hint="Days after each refusal, in order: 3, 7 tries 3 days after the first and 7 after the second. Leave blank to never try again."
      />
    </AdminFormView>
  );
}

const daysText = (days: number[]) => (days.length === 0 ? 'never tried again' : `tried again after ${days.join(', then ')} days`);

export function PlanSettingsSection() {
  const money = can(useStaff(), 'money');
  const loaded = useAdminData<PlanSettingsAnswer>(SETTINGS_PATH);
  return (
    <section aria-labelledby="plan-settings" className="plan-card">
      <h2 id="plan-settings">Settings</h2>
      <RequestView request={loaded} what="the plan settings">
        {({ settings }) =>
          money ? <SettingsForm settings={settings} /> : <p>{`At most ${settings.maxInstalments} instalments; a refused card is ${daysText(settings.retryDays)}.`}</p>
        }
      </RequestView>
    </section>
  );
}
